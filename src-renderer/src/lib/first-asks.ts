import type { LedgerDomain } from '../../../src-shared/contract.ts';
import type { EarlyAsk } from '../bridge/early-asks.ts';
import type { ViewId } from './nav.ts';

/** Rows a ledger table asks for at a time: a viewport and then some. */
export const LEDGER_PAGE_SIZE = 100;

/** The screens whose first content is a ledger table of their own. */
export const LEDGER_SCREENS: Partial<Record<ViewId, LedgerDomain>> = { listings: 'listings', 'buy-orders': 'buyOrders' };

/**
 * What a window opening on `view` asks before it is built: whether the
 * profile opened, and on a ledger screen its first page (no filter, no sort:
 * a new window's table starts so), the accounts that name its cells and, on
 * Buy orders, the balance its head shows. The same questions, to the letter,
 * as the stores ask when they start (a test holds them to it).
 */
export function firstAsksFor(view: ViewId): EarlyAsk[] {
  const asks: EarlyAsk[] = [{ channel: 'profile:problem', input: {} }];
  const domain = LEDGER_SCREENS[view];
  if (domain === undefined) return asks;
  asks.push({ channel: 'ledger:page', input: { domain, filter: {}, sort: null, offset: 0, limit: LEDGER_PAGE_SIZE } });
  asks.push({ channel: 'accounts:list', input: {} });
  if (domain === 'buyOrders') asks.push({ channel: 'balance:get', input: {} });
  return asks;
}
