import type { KeyTestResult } from '../../../src-shared/contract.ts';
import { formatCents } from '../../../src-shared/money.ts';
import { describeError } from './error-text.ts';
import { formatClock, formatCountdown } from './time.ts';
import { plural } from './words.ts';

/**
 * Words for the desk's own state on the first run, Overview and Settings:
 * waits, the clock warning, what a key test found. Errors are
 * worded by describeError and numbers by words.ts; this only puts them in
 * the sentences these screens need.
 */

/** A wait ahead: "in 40 s", "in 1:20", "now" once it has passed. */
export function waitWords(ms: number): string {
  if (ms <= 0) return 'now';
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `in ${seconds} s` : `in ${formatCountdown(ms)}`;
}

/** Off by more than this, the trader is told (the heartbeat allows for it either way). */
export const CLOCK_WARNING_MS = 60_000;

/**
 * "Your computer's clock is 8 min ahead of the service's; the heartbeat
 * allows for it." `offsetMs` is the service's clock minus ours; null when
 * the clocks agree within a minute or the offset is not known yet.
 */
export function clockWarning(offsetMs: number | null | undefined): string | null {
  if (offsetMs === null || offsetMs === undefined || Math.abs(offsetMs) <= CLOCK_WARNING_MS) return null;
  const minutes = Math.max(1, Math.round(Math.abs(offsetMs) / 60_000));
  const way = offsetMs < 0 ? 'ahead of' : 'behind';
  return `Your computer’s clock is ${minutes} min ${way} the service’s; the heartbeat allows for it. Set the clock right (automatic time) so times on screen match the service’s.`;
}

export type Tone = 'ok' | 'warn' | 'danger' | 'muted';

/** What a key test found, as a headline and the details under it. */
export interface KeyTestWords {
  readonly tone: Tone;
  readonly headline: string;
  readonly details: readonly string[];
}

const KEY_SOURCE = 'Make or copy the key on liquid.tf under Dashboard → Settings → API.';

/** `sandboxNow`: the desk is (still) in sandbox mode, so the key is not in use yet. */
export function keyTestWords(result: KeyTestResult, sandboxNow = result.mode === 'sandbox'): KeyTestWords {
  const where = hostOf(result.serviceUrl);
  const key = result.last4 === null ? 'The key' : `The key ending ••${result.last4}`;
  const sandboxNote = sandboxNow ? ['The desk stays in sandbox mode: this key is used once you go live.'] : [];
  switch (result.outcome) {
    case 'accepted': {
      const details = [
        result.mainAccount === null ? 'Account: not read' : `Account ${result.mainAccount}`,
        result.balance === null
          ? 'Balance: not read'
          : `Balance ${formatCents(result.balance.balance)} (pending ${formatCents(result.balance.pending_balance)})`,
        result.mainAccount === null ? null : linkedWords(result.linkedAccounts),
        result.problem === null ? null : `Not everything could be read: ${describeError(result.problem)}`,
        result.answeredAt === null ? null : `The service answered at ${formatClock(result.answeredAt)}.`,
      ].filter((d): d is string => d !== null);
      return { tone: 'ok', headline: `${key} works: ${where} accepted it.`, details: [...details, ...sandboxNote] };
    }
    case 'no_key':
      return {
        tone: 'muted',
        headline: result.problem === null ? 'No API key is stored yet: paste one above.' : `No key could be read: ${describeError(result.problem)}`,
        details: [KEY_SOURCE],
      };
    case 'rejected':
      return {
        tone: 'danger',
        headline: `${where} refused ${key.replace(/^The/, 'the')}.`,
        details: ['Check that you copied all of it, or make a new one (an old key stops working when a new one is made).', KEY_SOURCE],
      };
    case 'forbidden':
      return {
        tone: 'danger',
        headline: `${key} is right, but ${where} does not permit this account to trade through it.`,
        details: ['The account may not be in good standing, or barred from marketplace activity: check it on the site.'],
      };
    case 'unreachable':
      return {
        tone: 'warn',
        headline: `Could not reach ${where}${result.unreachableWhy ? `: ${result.unreachableWhy}` : ''}.`,
        details: ['Nothing is known about the key yet. Check the connection, or the service URL in Settings → Advanced, and test again.', ...sandboxNote],
      };
    case 'failed':
      if (result.problem?.kind === 'invalid') {
        return { tone: 'warn', headline: `The test could not be sent: ${describeError(result.problem)}`, details: sandboxNote };
      }
      return {
        tone: 'warn',
        headline: `${where} answered, but not in a way the desk could read.`,
        details: [result.problem === null ? 'Test again in a minute.' : describeError(result.problem), ...sandboxNote],
      };
  }
}

function linkedWords(ids: readonly string[]): string {
  if (ids.length === 0) return 'No linked accounts';
  return `${plural(ids.length, 'linked account')}: ${ids.join(', ')}`;
}

/** "api.liquid.tf" from its URL; the URL as it is when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
