import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { WatchedTradeView } from '../../../src-preload/contract.ts';
import { call, onEvent } from '../api.ts';
import { orderTrades } from '../lib/trade-order.ts';
import { useNoticesStore } from './notices.ts';

/** Pending trades as main last saw them, needs-action first. */
export const useTradesStore = defineStore('trades', () => {
  const trades = ref<WatchedTradeView[]>([]);
  const checking = ref(false);
  let started = false;

  const ordered = computed(() => orderTrades(trades.value));
  const market = computed(() => ordered.value.filter((t) => t.trade_type === 'market'));
  const buyOrder = computed(() => ordered.value.filter((t) => t.trade_type === 'buy_order'));
  const needingAction = computed(() => ordered.value.filter((t) => t.needsAction));

  async function load(): Promise<void> {
    trades.value = await call('trades:list', {});
  }

  /** Spends one of each load endpoint's per-minute requests. */
  async function checkNow(): Promise<void> {
    checking.value = true;
    try {
      trades.value = await call('trades:checkNow', {});
    } catch (err) {
      useNoticesStore().error(err);
    } finally {
      checking.value = false;
    }
  }

  /** Main opens the offer in the system browser; the renderer never navigates. */
  async function openOffer(tradeId: string): Promise<void> {
    try {
      await call('trades:openOffer', { tradeId });
    } catch (err) {
      useNoticesStore().error(err);
    }
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('trades:changed', (list) => (trades.value = list));
    void load().catch((err: unknown) => useNoticesStore().error(err));
  }

  return { trades, checking, ordered, market, buyOrder, needingAction, load, checkNow, openOffer, start };
});
