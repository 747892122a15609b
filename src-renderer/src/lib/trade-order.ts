import type { WatchedTradeView } from '../../../src-shared/contract.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';

/**
 * How the trade lists are ordered and worded. The service's statuses differ
 * in capitalisation between market and buy order trades; the desk says each
 * one way, with a tone for its badge and what the trader does next.
 */

/** Needs-action first, then newest first, then by ID so the order is stable. */
export function orderTrades(trades: readonly WatchedTradeView[]): WatchedTradeView[] {
  return [...trades].sort((a, b) => {
    if (a.needsAction !== b.needsAction) return a.needsAction ? -1 : 1;
    if (a.timestamp !== b.timestamp) return b.timestamp - a.timestamp;
    return byCodeUnit(a.trade_id, b.trade_id);
  });
}

export type Tone = 'action' | 'warn' | 'ok' | 'info' | 'muted' | 'danger';

/** A trade's status as the desk says it everywhere: one wording, whatever the service's spelling. */
export interface StatusWords {
  readonly label: string;
  readonly tone: Tone;
  /** What the trader does next, in a sentence; null when nothing is theirs to do. */
  readonly todo: string | null;
}

/**
 * The service writes "Action Required" for market trades and "Action
 * required" for buy order trades, and `confirmation_required` in snake case
 * (interface 3.1). The desk says each the same way on every screen; a status
 * it does not know is shown in sentence case, never dropped.
 */
export function statusWords(status: string, tradeType: 'market' | 'buy_order'): StatusWords {
  switch (status.trim().toLowerCase()) {
    case 'action required':
      return {
        label: 'Action required',
        tone: 'action',
        todo: tradeType === 'market' ? 'You sold: accept the trade offer.' : 'You fill a buy order: send the trade offer.',
      };
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

/** The trade offer's own state (`raw_status`) in the same words. */
export function rawStatusWords(raw: string): string {
  switch (raw.trim().toUpperCase()) {
    case 'SENT': return 'offer sent';
    case 'CONFIRMATION_REQUIRED': return 'offer waits for mobile confirmation';
    default: return `offer ${humanise(raw).toLowerCase()}`;
  }
}

/** "SOME_NEW_state" → "Some new state". */
function humanise(text: string): string {
  const spaced = text.replaceAll('_', ' ').trim().toLowerCase();
  return spaced === '' ? 'Unknown status' : spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * What sets an item apart, after its name: quality, effect (named when the
 * schema knows it), killstreak, australium, festivized, wear, craftable. A
 * part the name already says ("Non-Craftable …", an effect before an
 * Unusual's name) is not said twice.
 */
export function itemDetails(item: {
  name?: string;
  quality: string;
  particle_url: string | null;
  wear?: string | undefined;
  item?: { effect: string | null; killstreak: string | null; australium: boolean; festivized: boolean; craftable: boolean; wear: string | null } | null | undefined;
}): string {
  const named = (item.name ?? '').toLowerCase();
  const parts: string[] = [];
  const add = (part: string | null | undefined) => {
    if (part && !named.includes(part.toLowerCase())) parts.push(part);
  };
  add(item.quality);
  add(item.item?.effect ?? (item.particle_url !== null && item.particle_url !== '' ? `effect #${item.particle_url}` : null));
  add(item.item?.killstreak);
  if (item.item?.australium) add('Australium');
  if (item.item?.festivized) add('Festivized');
  add(item.wear !== undefined && item.wear !== '' ? item.wear : item.item?.wear ?? null);
  if (item.item && !item.item.craftable) add('Non-Craftable');
  return parts.join(' · ');
}
