import { defineStore } from 'pinia';
import { call } from '../bridge/api.ts';

/**
 * "Check ledger": main reads again what the service can tell of the ledger
 * (the pending trades, which name what sold, and the balance) and answers
 * the rows whose state is in doubt. Each answer is the panel's own (an open
 * panel asks afresh). Waits for the trade read's once-a-minute slot; throws DeskError.
 */
export const useLedgerCheckStore = defineStore('ledger-check', () => {
  const check = () => call('ledger:check', {});
  return { check };
});
