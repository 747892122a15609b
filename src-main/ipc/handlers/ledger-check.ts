import type { LedgerChecker } from '../../core/trades/ledger-check.ts';
import type { Handlers } from '../router.ts';

/**
 * "Check ledger": re-read what the service can tell and list the rows in
 * doubt. Rows it marks move the ledger's stamp through the store, like any
 * other ledger write.
 */
export function ledgerCheckHandlers(services: { ledger(): Pick<LedgerChecker, 'check'> }): Pick<Handlers, 'ledger:check'> {
  return {
    'ledger:check': () => services.ledger().check(),
  };
}
