import { defineStore } from 'pinia';
import { csvFormat } from './settings.ts';
import { computed, ref, shallowRef, watch } from 'vue';
import type {
  BulkOp, BulkOutcome, ItemFacetCounts, LedgerDomain, LedgerFilter, LedgerRowView, LedgerSelection, LedgerSort,
} from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';
import { createPagedRows } from '../lib/paged-rows.ts';
import { clickSelection, countSelected, emptySelection, isSelected, selectAllMatching, selectionValue, type ClickModifiers, type TableSelection } from '../lib/table-selection.ts';

import { useNoticesStore } from './notices.ts';

/** Rows asked for at a time: a viewport and then some. */
const PAGE_SIZE = 100;

/**
 * One ledger table (listings or buy orders) as main answers it: the filter
 * and sort the trader set, the page on screen, and the selection as a value
 * main understands. Main lays the draft over the ledger, filters, sorts and
 * counts; this store asks and shows. A push that main's ledger or drafts
 * moved past what is shown asks again for the rows on screen.
 */
function defineLedgerTable(domain: LedgerDomain) {
  return defineStore(`ledger-${domain}`, () => {
    const notices = useNoticesStore();
    const filter = ref<LedgerFilter>({});
    const sort = shallowRef<LedgerSort | null>(null);
    const info = shallowRef({ all: 0, changed: 0, draftId: null as string | null, stamps: { ledger: -1, drafts: -1 } });
    /** The newest stamps main announced. */
    const seen = { ledger: 0, drafts: 0 };
    const selection = shallowRef<TableSelection>(emptySelection);
    /** What the table's rows hold, for its item filters: asked for while the filters are shown. */
    const facets = shallowRef<ItemFacetCounts>({ qualities: [], effects: [], killstreaks: [], wears: [] });
    let facetsWanted = false;
    let started = false;

    const rows = createPagedRows<LedgerRowView>({
      pageSize: PAGE_SIZE,
      async fetch(offset, limit) {
        // A copy: the bridge clones what it sends, and a reactive proxy cannot be cloned.
        const page = await call('ledger:page', { domain, filter: { ...filter.value }, sort: sort.value, offset, limit });
        const s = info.value.stamps;
        if (page.stamps.ledger >= s.ledger && page.stamps.drafts >= s.drafts) {
          info.value = { all: page.all, changed: page.changed, draftId: page.draftId, stamps: page.stamps };
        }
        return page;
      },
      onError: (error) => notices.error(error),
    });

    const selectedCount = computed(() => countSelected(selection.value, rows.total.value));
    const behind = () => info.value.stamps.ledger < seen.ledger || info.value.stamps.drafts < seen.drafts;

    /**
     * Main's state moved past what is shown: ask again for the rows on screen.
     * One catch-up at a time, and it asks again only while the answers are
     * still behind: an edit's reply and the push it caused share one refresh.
     */
    let catching: Promise<void> | null = null;
    async function askUntilCurrent(): Promise<void> {
      while (behind()) {
        const before = info.value.stamps;
        await rows.refresh();
        // An answer that did not move on (a failed fetch) is not asked again and again.
        if (info.value.stamps === before) break;
      }
    }
    function catchUp(): Promise<void> {
      // Cleared after it is set: a catch-up with nothing to do ends before `catching` is assigned.
      catching ??= askUntilCurrent().finally(() => (catching = null));
      return catching;
    }

    // A new filter or sort is a new question: a selection made on the old one no longer means what it said.
    watch([filter, sort], () => {
      selection.value = emptySelection;
      void rows.refresh();
    }, { deep: true });

    function select(index: number, key: string, mods: ClickModifiers): Promise<void> {
      return clickSelection(selection.value, index, key, mods, async (from, to) => {
        const loaded = [];
        for (let i = from; i <= to; i++) loaded.push(rows.rowAt(i)?.key);
        if (loaded.every((k) => k !== undefined)) return loaded as string[];
        return (await call('ledger:keys', { domain, filter: { ...filter.value }, sort: sort.value, offset: from, limit: to - from + 1 })).keys;
      }).then((next) => void (selection.value = next), (error: unknown) => void notices.error(error));
    }

    /** Every row matching the filter, as one small value (Ctrl/Cmd+A). */
    function selectAll(): void {
      selection.value = selectAllMatching(filter.value);
    }

    async function afterEdit<T>(work: () => Promise<T>): Promise<T> {
      const result = await work();
      await catchUp();
      return result;
    }

    /** What a bulk edit would do to the selection: computed by main, storing nothing. */
    const preview = (op: BulkOp): Promise<BulkOutcome> =>
      call('ledger:preview', { domain, selection: selectionValue(selection.value), op });

    const bulk = (op: BulkOp) => afterEdit(() => call('ledger:bulk', { domain, selection: selectionValue(selection.value), op }));
    const deleteSelected = () => afterEdit(() => call('ledger:delete', { domain, selection: selectionValue(selection.value) }));
    const revertSelected = () => afterEdit(() => call('ledger:revert', { domain, selection: selectionValue(selection.value) }));
    const deleteAllImpact = (activeOnly: boolean) => call('ledger:deleteAllImpact', { domain, activeOnly });
    /** The ledger's rows matching the filter (or all of them) as a CSV file main writes. */
    const exportCsv = (all: boolean) => call('ledger:exportCsv', { domain, filter: all ? null : { ...filter.value }, format: csvFormat() });

    const loadFacets = () => call('ledger:facets', { domain }).then((f) => void (facets.value = f), (error: unknown) => void notices.error(error));
    /** The filters are shown (true) or hidden: while shown, what the rows hold is asked for again as the ledger moves. */
    function wantFacets(wanted: boolean): void {
      facetsWanted = wanted;
      if (wanted) void loadFacets();
    }

    function start(): void {
      if (started) return;
      started = true;
      onEvent('ledger:changed', ({ stamp }) => {
        seen.ledger = Math.max(seen.ledger, stamp);
        void catchUp();
        if (facetsWanted) void loadFacets();
      });
      onEvent('drafts:changed', ({ stamp }) => {
        seen.drafts = Math.max(seen.drafts, stamp);
        void catchUp();
      });
      void rows.refresh();
    }

    /** A header click: a new column sorts ascending, the same column flips. */
    function sortBy(column: LedgerSort['column']): void {
      sort.value = sort.value?.column === column ? { column, dir: sort.value.dir === 'asc' ? 'desc' : 'asc' } : { column, dir: 'asc' };
    }

    return {
      domain, filter, sort, info, rows, selection, selectedCount, sortBy, facets, wantFacets,
      setFilter: (next: LedgerFilter) => void (filter.value = next),
      isSelected: (key: string) => isSelected(selection.value, key),
      selectionValue: (): LedgerSelection => selectionValue(selection.value),
      select, selectAll, clearSelection: () => void (selection.value = emptySelection),
      preview, bulk, deleteSelected, revertSelected, deleteAllImpact, exportCsv, refresh: () => rows.refresh(), start,
    };
  });
}

export const useListingsTable = defineLedgerTable('listings');
export const useBuyOrdersTable = defineLedgerTable('buyOrders');
export type LedgerTableStore = ReturnType<typeof useListingsTable>;

export function useLedgerTable(domain: LedgerDomain): LedgerTableStore {
  return (domain === 'listings' ? useListingsTable() : useBuyOrdersTable()) as LedgerTableStore;
}
