import { watch } from 'vue';
import type { LedgerDomain } from '../../../src-shared/contract.ts';
import type { ViewId } from '../lib/nav.ts';
import { useAccountsStore } from './accounts.ts';
import { useBalanceStore } from './balance.ts';
import { useLedgerTable } from './ledger.ts';

/** The longest a new window waits for its screen's first content before it shows the screen without it. */
export const FIRST_CONTENT_MAX_WAIT_MS = 150;

/** The screens whose first content is a ledger table of their own. */
const LEDGER_SCREENS: Partial<Record<ViewId, LedgerDomain>> = { listings: 'listings', 'buy-orders': 'buyOrders' };

/**
 * What a ledger screen asks while it is built: its rows, the accounts that
 * name their Account cells, and on Buy orders the balance its head shows.
 * Each store starts once, so calling this again asks nothing twice.
 */
export function startLedgerScreen(domain: LedgerDomain) {
  const table = useLedgerTable(domain);
  const accounts = useAccountsStore();
  table.start();
  accounts.start();
  if (domain === 'buyOrders') useBalanceStore().start();
  return { table, accounts };
}

/**
 * Asks for what the screen at `view` shows first, before the window is built,
 * and resolves once it is in, or after `maxWaitMs` at the latest. Main answers
 * such a question in a few milliseconds when it is at rest: the window is then
 * built once with its rows in it and laid out and painted once, instead of
 * painting an empty table, then drawing the rows into it and laying the
 * window out again. A screen that shows only the desk-wide stores resolves at
 * once; a slow answer (the desk still reading its data at launch) shows the
 * screen without its rows after `maxWaitMs`, as before.
 */
export function firstContent(view: ViewId, maxWaitMs = FIRST_CONTENT_MAX_WAIT_MS): Promise<void> {
  const domain = LEDGER_SCREENS[view];
  if (domain === undefined) return Promise.resolve();
  const { table, accounts } = startLedgerScreen(domain);
  const ready = () => table.rows.loaded && accounts.accounts !== null;
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = watch(ready, (isReady) => isReady && finish());
    const timer = setTimeout(finish, maxWaitMs);
    function finish(): void {
      clearTimeout(timer);
      stop();
      resolve();
    }
  });
}
