import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { BalanceView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { guarded, loadQuietly } from './guarded.ts';

/**
 * The last balance read (with when it was read). `refresh` spends one of the
 * two balance requests a minute allows, so it is a deliberate button.
 */
export const useBalanceStore = defineStore('balance', () => {
  const balance = ref<BalanceView | null>(null);
  const refreshing = ref(false);
  let started = false;

  async function load(): Promise<void> {
    balance.value = await call('balance:get', {});
  }

  /** Spends one of the two balance requests a minute. */
  const refresh = () => guarded(refreshing, async () => (balance.value = await call('balance:refresh', {})));

  function start(): void {
    if (started) return;
    started = true;
    onEvent('balance:changed', (b) => (balance.value = b));
    loadQuietly(load);
  }

  return { balance, refreshing, load, refresh, start };
});
