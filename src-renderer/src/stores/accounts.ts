import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AccountsView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { guarded, loadQuietly } from './guarded.ts';

/** The main and linked accounts with their trade URLs and heartbeat coverage. */
export const useAccountsStore = defineStore('accounts', () => {
  const accounts = ref<AccountsView | null>(null);
  const refreshing = ref(false);
  let started = false;

  const mainId = computed(() => accounts.value?.main?.id64 ?? '');
  /** Every account ID, main first, for filters and pickers. */
  const allIds = computed(() => {
    const a = accounts.value;
    if (!a) return [];
    return [...(a.main ? [a.main.id64] : []), ...a.linked.map((l) => l.id64)];
  });

  async function load(): Promise<void> {
    accounts.value = await call('accounts:list', {});
  }

  /** Reads the trade URLs from the service (1 request a minute). */
  const refresh = () => guarded(refreshing, async () => (accounts.value = await call('accounts:refresh', {})));

  /** `account` is omitted for the main account, as the service expects. Throws DeskError. */
  async function setTradeUrl(account: string | null, tradeUrl: string): Promise<void> {
    accounts.value = await call('accounts:setTradeUrl', account === null ? { tradeUrl } : { account, tradeUrl });
  }

  const setAutomated = (id64: string, automated: boolean) =>
    guarded(null, async () => (accounts.value = await call('accounts:setAutomated', { id64, automated })));

  function start(): void {
    if (started) return;
    started = true;
    onEvent('accounts:changed', (a) => (accounts.value = a));
    loadQuietly(load);
  }

  return { accounts, refreshing, mainId, allIds, load, refresh, setTradeUrl, setAutomated, start };
});
