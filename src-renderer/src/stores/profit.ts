import { defineStore } from 'pinia';
import { ref, shallowRef, watch } from 'vue';
import type { ProfitBy, ProfitReport, ProfitSku } from '../../../src-shared/history-profit.ts';
import { call, onEvent } from '../bridge/api.ts';
import { useHistoryStore } from './history.ts';
import { useNoticesStore } from './notices.ts';
import { csvFormat } from './settings.ts';

/** A recording, or a cost counted after it, comes with every load: the profit is asked again at most this often. */
const RELOAD_MS = 1_000;

/**
 * History's profit as main answers it, for the History screen's range and
 * account: the table per day, week or item, what is held at the source's
 * prices, and the SKU the trader opened. Asked again when History records
 * trades or costs and prices move (pricing:changed), at most once a second.
 */
export const useProfitStore = defineStore('profit', () => {
  const history = useHistoryStore();
  const notices = useNoticesStore();
  const by = ref<ProfitBy>('day');
  const report = shallowRef<ProfitReport | null>(null);
  /** The SKU whose sales are open, and what main answered for it. */
  const sku = ref<string | null>(null);
  const skuSales = shallowRef<ProfitSku | null>(null);
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let asked = 0;

  async function load(): Promise<void> {
    const n = (asked += 1);
    const range = { ...history.range };
    try {
      const answer = await call('history:profit', { range, by: by.value });
      const open = sku.value === null ? null : await call('history:profitSku', { range, sku: sku.value });
      if (n !== asked) return;
      report.value = answer;
      skuSales.value = open;
    } catch (error) {
      if (n === asked) notices.error(error);
    }
  }

  const later = () => {
    timer ??= setTimeout(() => {
      timer = null;
      void load();
    }, RELOAD_MS);
  };

  function start(): void {
    if (!started) {
      started = true;
      onEvent('history:changed', later);
      onEvent('pricing:changed', later);
      watch(() => history.range, () => void load(), { deep: true });
      watch(by, () => void load());
    }
    void load();
  }

  /** Opens one SKU's sales (null closes them). */
  async function openSku(next: string | null): Promise<void> {
    sku.value = next;
    skuSales.value = null;
    if (next !== null) await load();
  }

  /** The table's rows (all of them) as CSV main writes. */
  const exportCsv = () => call('history:profitCsv', { range: { ...history.range }, by: by.value, format: csvFormat() });

  return { by, report, sku, skuSales, load, start, openSku, exportCsv };
});
