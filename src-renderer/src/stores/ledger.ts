import { defineStore } from 'pinia';
import { shallowRef, ref } from 'vue';
import type { BuyOrderRow, ListingRow } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { loadQuietly } from './guarded.ts';

/**
 * The local ledger (listings and buy orders of the main and linked accounts)
 * as main stores it. Rows are held in shallow refs: at 50,000 rows, deep
 * reactivity would cost more than the table itself.
 */
export const useLedgerStore = defineStore('ledger', () => {
  const listings = shallowRef<readonly ListingRow[]>([]);
  const buyOrders = shallowRef<readonly BuyOrderRow[]>([]);
  const loaded = ref(false);
  let started = false;

  async function loadListings(): Promise<void> {
    listings.value = Object.freeze(await call('listings:list', {}));
  }

  async function loadBuyOrders(): Promise<void> {
    buyOrders.value = Object.freeze(await call('buyOrders:list', {}));
  }

  async function load(): Promise<void> {
    await Promise.all([loadListings(), loadBuyOrders()]);
    loaded.value = true;
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('ledger:changed', (what) => {
      if (what.listings) loadQuietly(loadListings);
      if (what.buyOrders) loadQuietly(loadBuyOrders);
    });
    loadQuietly(load);
  }

  return { listings, buyOrders, loaded, load, loadListings, loadBuyOrders, start };
});
