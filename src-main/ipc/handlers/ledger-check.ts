import type { Desk } from '../../core/desk/desk.ts';
import type { Handlers } from '../router.ts';

/**
 * Issue #10: "Check ledger". The re-read trades may mark listings sold, so
 * the renderer is told the ledger changed.
 */
export function ledgerCheckHandlers(desk: Desk, ledgerChanged: () => void): Pick<Handlers, 'ledger:check'> {
  return {
    'ledger:check': async () => {
      const result = await desk.workspace().ledger.check();
      ledgerChanged();
      return result;
    },
  };
}
