import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type {
  ChannelInput, InventoryFilter, InventoryItemView, InventoryPricing, InventoryPricingOutcome, InventorySort, InventoryState,
} from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';
import { coalesce } from '../lib/coalesce.ts';
import { createPagedRows } from '../lib/paged-rows.ts';
import {
  clickSelection, countSelected, emptySelection, isSelected, selectAllMatching, selectionValue, type ClickModifiers, type TableSelection,
} from '../lib/table-selection.ts';
import { useNoticesStore } from './notices.ts';

/** Items asked for at a time: a viewport and then some. */
const PAGE_SIZE = 100;

/**
 * The inventory picker as main answers it: each account's read (when, how
 * far, or why not), a page of items for the filter on screen, and the ticked
 * items as a value main understands. Main reads Steam, filters, marks what is
 * listed, prices and drafts; this store asks and shows.
 */
export const useInventoryStore = defineStore('inventory', () => {
  const notices = useNoticesStore();
  const filter = ref<InventoryFilter>({});
  const sort = shallowRef<InventorySort | null>(null);
  const state = shallowRef<InventoryState | null>(null);
  const selection = shallowRef<TableSelection<InventoryFilter>>(emptySelection);
  let started = false;
  const offs: Array<() => void> = [];

  const rows = createPagedRows<InventoryItemView>({
    pageSize: PAGE_SIZE,
    fetch: (offset, limit) => call('inventory:page', { filter: { ...filter.value }, sort: sort.value, offset, limit }),
    onError: (error) => notices.error(error),
  });

  /** The next read of the state also asks main to read what is old (the picker opened). */
  let freshen = false;
  const loadState = coalesce(async () => {
    const ensureFresh = freshen;
    freshen = false;
    const next = await call('inventory:state', { ensureFresh });
    if (state.value === null || next.stamp >= state.value.stamp) state.value = next;
  });

  const selectedCount = computed(() => countSelected(selection.value, rows.total.value));

  // A new question: ticks made for the old one no longer mean what they said (a select-all would change meaning).
  watch([filter, sort], () => {
    if (selection.value.kind === 'all') selection.value = emptySelection;
    void rows.refresh();
  }, { deep: true });

  /** The picker opened: read what is old or was never read (in the background), and show what is kept. */
  function start(): void {
    freshen = true;
    void loadState().catch((e: unknown) => notices.error(e));
    void rows.refresh();
    if (started) return;
    started = true;
    offs.push(
      onEvent('inventory:changed', ({ stamp, items }) => {
        if (state.value !== null && stamp <= state.value.stamp) return;
        void loadState().catch(() => undefined);
        if (items) void rows.refresh();
      }),
      // Listed and drafted marks follow the ledger and the draft.
      onEvent('ledger:changed', () => void rows.refresh()),
      onEvent('drafts:changed', () => void rows.refresh()),
    );
  }

  function stop(): void {
    for (const off of offs.splice(0)) off();
    started = false;
  }

  async function refresh(account?: string): Promise<void> {
    const next = await call('inventory:refresh', account === undefined ? {} : { account });
    if (state.value === null || next.stamp >= state.value.stamp) state.value = next;
  }

  function select(index: number, key: string, mods: ClickModifiers): Promise<void> {
    return clickSelection(selection.value, index, key, mods, async (from, to) => {
      const loaded: Array<string | undefined> = [];
      for (let i = from; i <= to; i++) loaded.push(rows.rowAt(i)?.key);
      if (loaded.every((k) => k !== undefined)) return loaded as string[];
      return (await call('inventory:keys', { filter: { ...filter.value }, sort: sort.value, offset: from, limit: to - from + 1 })).keys;
    }).then((next) => void (selection.value = next), (error: unknown) => void notices.error(error));
  }

  const value = () => selectionValue(selection.value);
  const preview = (pricing: InventoryPricing): Promise<InventoryPricingOutcome> => call('inventory:preview', { selection: value(), pricing });

  async function draft(pricing: InventoryPricing, extras: { promoted: 0 | 1; user_note?: string }) {
    const outcome = await call('inventory:draft', { selection: value(), pricing, extras });
    if (outcome.added > 0) selection.value = emptySelection;
    return outcome;
  }

  /** Asset IDs typed by hand, against the inventory as last read: which are there, elsewhere, listed or drafted. */
  const checkAssets = (input: ChannelInput<'inventory:checkAssets'>) => call('inventory:checkAssets', input);
  /** Listings of typed asset IDs into the draft, at one price; per-ID refusals come back. Throws DeskError. */
  const draftAssets = (input: ChannelInput<'inventory:draftAssets'>) => call('inventory:draftAssets', input);

  return {
    filter, sort, state, rows, selection, selectedCount,
    start, stop, refresh, select, preview, draft, checkAssets, draftAssets,
    isSelected: (key: string) => isSelected(selection.value, key),
    selectAll: () => void (selection.value = selectAllMatching<InventoryFilter>(filter.value)),
    clearSelection: () => void (selection.value = emptySelection),
  };
});

export type InventoryStore = ReturnType<typeof useInventoryStore>;
