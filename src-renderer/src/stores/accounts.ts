import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call } from '../bridge/api.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/** The main and linked accounts with their trade URLs and heartbeat coverage. */
export const useAccountsStore = defineStore('accounts', () => {
  const mirror = createMirror(() => call('accounts:list', {}), 'accounts:changed');
  const refreshing = ref(false);
  let started = false;

  const accounts = mirror.value;
  /** How reading the accounts list goes: reading, retrying (when, why), done. */
  const read = computed(() => accounts.value?.read ?? null);
  const mainId = computed(() => accounts.value?.main?.id64 ?? '');
  /** Every account ID, main first, for filters and pickers. */
  const allIds = computed(() => {
    const a = accounts.value;
    if (!a) return [];
    return [...(a.main ? [a.main.id64] : []), ...a.linked.map((l) => l.id64)];
  });

  /** Reads the trade URLs from the service (1 request a minute). */
  const refresh = () => guarded(refreshing, async () => void mirror.accept(await call('accounts:refresh', {})));

  /** `account` is omitted for the main account, as the service expects. Throws DeskError. */
  async function setTradeUrl(account: string | null, tradeUrl: string): Promise<void> {
    mirror.accept(await call('accounts:setTradeUrl', account === null ? { tradeUrl } : { account, tradeUrl }));
  }

  const setAutomated = (id64: string, automated: boolean) =>
    guarded(null, async () => void mirror.accept(await call('accounts:setAutomated', { id64, automated })));

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { accounts, read, refreshing, mainId, allIds, load: mirror.load, refresh, setTradeUrl, setAutomated, start };
});
