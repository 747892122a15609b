import { defineStore } from 'pinia';
import { csvFormat } from './settings.ts';
import { computed, ref, shallowRef, watch } from 'vue';
import type { HistoryRowView, HistoryShow, HistorySummary } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';
import { historyRangeOf, type RangePreset } from '../lib/history-range.ts';
import { createPagedRows } from '../lib/paged-rows.ts';
import { useNoticesStore } from './notices.ts';

const PAGE_SIZE = 100;
/** Recording comes with every load (once a minute): the screen asks again at most this often. */
const RELOAD_MS = 1_000;

/**
 * The History screen as main answers it: the range and account the trader
 * chose, the figures for them, and the trades behind the figures a page at
 * a time, searched by item. Main computes everything; a push that the history moved past what
 * is shown asks again.
 */
export const useHistoryStore = defineStore('history', () => {
  const notices = useNoticesStore();
  const preset = ref<RangePreset>('30d');
  /** The custom range's first and last day (YYYY-MM-DD, both included). */
  const customFrom = ref('');
  const customTo = ref('');
  const account = ref('');
  const show = ref<HistoryShow>('completed');
  /** The table's item search (words in any order, as every table reads it); undefined: every trade. The figures are the range's. */
  const text = ref<string | undefined>(undefined);
  const period = ref<'day' | 'week'>('day');
  const summary = shallowRef<HistorySummary | null>(null);
  const loading = ref(false);
  let seen = 0;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const range = computed(() => ({
    ...historyRangeOf(preset.value, customFrom.value, customTo.value, new Date()),
    account: account.value === '' ? null : account.value,
  }));

  const rows = createPagedRows<HistoryRowView>({
    pageSize: PAGE_SIZE,
    fetch: (offset, limit) => call('history:page', { range: { ...range.value }, show: show.value, offset, limit, ...searched() }),
    onError: (error) => notices.error(error),
  });

  const searched = () => (text.value === undefined ? {} : { text: text.value });

  let asked = 0;
  async function load(): Promise<void> {
    const n = (asked += 1);
    loading.value = true;
    try {
      const answer = await call('history:summary', { ...range.value });
      if (n === asked) summary.value = answer;
    } catch (error) {
      if (n === asked) notices.error(error);
    } finally {
      if (n === asked) loading.value = false;
    }
    await rows.refresh();
  }

  watch([range, show], () => void load(), { deep: true });
  watch(text, () => void rows.refresh());

  function start(): void {
    if (started) {
      void load();
      return;
    }
    started = true;
    onEvent('history:changed', ({ stamp }) => {
      seen = Math.max(seen, stamp);
      if ((summary.value?.stamp ?? -1) >= seen || timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, RELOAD_MS);
    });
    void load();
  }

  /** The table's trades (all of them, not only those on screen) as CSV main writes. */
  const exportCsv = () => call('history:exportCsv', {
    range: { ...range.value }, show: show.value, ...searched(), format: csvFormat(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });

  return { preset, customFrom, customTo, account, show, text, period, summary, loading, range, rows, load, start, exportCsv };
});
