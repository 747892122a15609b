import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call } from '../bridge/api.ts';
import { orderTrades } from '../lib/trade-order.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/** Pending trades as main last saw them, needs-action first. */
export const useTradesStore = defineStore('trades', () => {
  const mirror = createMirror(() => call('trades:list', {}), 'trades:changed');
  const checking = ref(false);
  let started = false;

  const trades = computed(() => mirror.value.value?.trades ?? []);
  /** When main last read the trade lists (its clock); null before the first read. */
  const checkedAt = computed(() => mirror.value.value?.checkedAt ?? null);
  const ordered = computed(() => orderTrades(trades.value));
  const market = computed(() => ordered.value.filter((t) => t.trade_type === 'market'));
  const buyOrder = computed(() => ordered.value.filter((t) => t.trade_type === 'buy_order'));
  const needingAction = computed(() => ordered.value.filter((t) => t.needsAction));

  /** Spends one of each load endpoint's per-minute requests. */
  const checkNow = () => guarded(checking, async () => void mirror.accept(await call('trades:checkNow', {})));
  /** Main opens the offer in the system browser; the renderer never navigates. */
  const openOffer = (tradeId: string) => guarded(null, () => call('trades:openOffer', { tradeId }));
  /** A partner's profile on Steam, backpack.tf or SteamRep, in the system browser. */
  const openPartnerPage = (id64: string, site: 'steam' | 'backpack' | 'steamrep') => guarded(null, () => call('trades:openPartnerPage', { id64, site }));

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { trades, checkedAt, checking, ordered, market, buyOrder, needingAction, checkNow, openOffer, openPartnerPage, start };
});
