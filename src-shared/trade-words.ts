import type { TradeEnding } from './history.ts';

/**
 * A trade in the trader's words, the same on every screen and in History's
 * CSV file: its status whatever the service's spelling, what the trader does
 * next, the trade offer's own state, and how a kept trade ended.
 */

/** A badge's colour, by what it asks of the trader. */
export type Tone = 'action' | 'warn' | 'ok' | 'info' | 'muted' | 'danger';

/** A trade's status as the desk says it everywhere: one wording, whatever the service's spelling. */
export interface StatusWords {
  readonly label: string;
  readonly tone: Tone;
  /** What the trader does next, in a sentence; null when nothing is theirs to do. */
  readonly todo: string | null;
}

/** The trade offer waits for a confirmation in the mobile authenticator (interface 2.4: `raw_status`). */
const awaitsConfirmation = (raw: string | undefined) => raw?.trim().toUpperCase() === 'CONFIRMATION_REQUIRED';

/**
 * The service writes "Action Required" for market trades and "Action
 * required" for buy order trades, and `confirmation_required` in snake case
 * (interface 3.1). The desk says each the same way on every screen; a status
 * it does not know is shown in sentence case, never dropped. The next step
 * agrees with the trade offer's own state (`raw`): an offer that waits for a
 * mobile confirmation asks for that, not to be accepted or sent again.
 */
export function statusWords(status: string, tradeType: 'market' | 'buy_order', raw?: string): StatusWords {
  const confirming = awaitsConfirmation(raw);
  switch (status.trim().toLowerCase()) {
    case 'action required': {
      if (confirming) {
        const what = tradeType === 'market' ? 'You sold' : 'You fill a buy order';
        return { label: 'Confirm on mobile', tone: 'action', todo: `${what}: confirm the trade offer in the mobile authenticator.` };
      }
      return {
        label: 'Action required',
        tone: 'action',
        todo: tradeType === 'market' ? 'You sold: accept the trade offer.' : 'You fill a buy order: send the trade offer.',
      };
    }
    case 'confirmation_required':
    case 'confirmation required':
      return { label: 'Confirm on mobile', tone: 'warn', todo: 'Confirm the trade in the mobile authenticator.' };
    case 'waiting for seller':
      return { label: 'Waiting for the seller', tone: 'info', todo: null };
    case 'waiting for buyer':
      return { label: 'Waiting for the buyer', tone: 'info', todo: null };
    default:
      return { label: humanise(status), tone: 'muted', todo: null };
  }
}

/**
 * The trade offer's own state (`raw_status`) in the same words, said of
 * whoever it waits for: the trader when the status asks them to act, the
 * partner while the trader waits.
 */
export function rawStatusWords(raw: string, status?: string): string {
  switch (raw.trim().toUpperCase()) {
    case 'SENT': return 'offer sent';
    case 'CONFIRMATION_REQUIRED': {
      const waiting = status !== undefined && status.trim().toLowerCase().startsWith('waiting for');
      return waiting ? 'offer waits for the partner’s mobile confirmation' : 'offer waits for mobile confirmation';
    }
    default: return `offer ${humanise(raw).toLowerCase()}`;
  }
}

/** "SOME_NEW_state" → "Some new state". */
function humanise(text: string): string {
  const spaced = text.replaceAll('_', ' ').trim().toLowerCase();
  return spaced === '' ? 'Unknown status' : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** How a kept trade ended, in the trader's words, and how the desk could tell. */
export const ENDING_WORDS: Readonly<Record<TradeEnding, { label: string; explain: string }>> = {
  pending: { label: 'pending', explain: 'still in the pending lists' },
  left: { label: 'left, checking', explain: 'left the pending lists; the next balance readings will tell' },
  balance_moved: { label: 'completed', explain: 'the balance moved by its amount' },
  listing_sold: { label: 'completed', explain: 'its listing is gone from the service, or was refused as sold' },
  vanished: { label: 'vanished', explain: 'left the pending lists with nothing to say it went through: declined or expired, most likely' },
};

/** "Sale · listing", "Purchase · buy order". */
export function tradeKind(row: { side: 'sale' | 'purchase'; tradeType: 'market' | 'buy_order' }): string {
  return `${row.side === 'sale' ? 'Sale' : 'Purchase'} · ${row.tradeType === 'market' ? 'listing' : 'buy order'}`;
}
