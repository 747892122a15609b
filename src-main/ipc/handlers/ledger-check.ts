import type { Desk } from '../../core/desk/desk.ts';
import type { Handlers } from '../router.ts';

/**
 * "Check ledger": re-read what the service can tell and list the rows in
 * doubt. Rows it marks move the ledger's stamp through the store, like any
 * other ledger write.
 */
export function ledgerCheckHandlers(desk: Desk): Pick<Handlers, 'ledger:check'> {
  return {
    'ledger:check': () => desk.workspace().ledger.check(),
  };
}
