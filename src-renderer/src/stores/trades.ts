import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { WatchedTradeView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { orderTrades } from '../lib/trade-order.ts';
import { guarded, loadQuietly } from './guarded.ts';

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
  const checkNow = () => guarded(checking, async () => (trades.value = await call('trades:checkNow', {})));
  /** Main opens the offer in the system browser; the renderer never navigates. */
  const openOffer = (tradeId: string) => guarded(null, () => call('trades:openOffer', { tradeId }));

  function start(): void {
    if (started) return;
    started = true;
    onEvent('trades:changed', (list) => (trades.value = list));
    loadQuietly(load);
  }

  return { trades, checking, ordered, market, buyOrder, needingAction, load, checkNow, openOffer, start };
});
