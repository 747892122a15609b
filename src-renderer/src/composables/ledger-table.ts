import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import type { DisplayRow } from '../lib/draft-overlay.ts';
import { emptyFilter, type LedgerFilter } from '../lib/ledger-filter.ts';
import { clickRow, emptySelection, pruneSelection, sameKeys, selectAll, type ClickModifiers, type SelectionState } from '../lib/selection.ts';
import { nextSort, sortRows, type SortSpec } from '../lib/sorting.ts';

/**
 * The state shared by the Listings and Buy orders tables: sort, filter and
 * selection over display rows. Sorting runs before filtering, so typing in a
 * filter only filters an already sorted list (no re-sort per keystroke).
 */
export function useLedgerTable<Row, Pending, K extends string>(
  rows: Ref<readonly DisplayRow<Row, Pending>[]>,
  sortKey: (column: K, d: DisplayRow<Row, Pending>) => string | number,
  filterRows: (rows: readonly DisplayRow<Row, Pending>[], f: LedgerFilter) => readonly DisplayRow<Row, Pending>[],
) {
  type D = DisplayRow<Row, Pending>;
  const filter = ref<LedgerFilter>(emptyFilter());
  const sort = shallowRef<SortSpec<K> | null>(null);
  const selection = shallowRef<SelectionState>(emptySelection);

  const sorted = computed<readonly D[]>(() => {
    const s = sort.value;
    return s === null ? rows.value : sortRows(rows.value, (d) => sortKey(s.column, d), s.dir);
  });
  const filtered = computed(() => filterRows(sorted.value, filter.value));
  const orderedKeys = computed(() => filtered.value.map((d) => d.key));
  const selectedRows = computed(() => {
    const keys = selection.value.keys;
    return keys.size === 0 ? [] : filtered.value.filter((d) => keys.has(d.key));
  });

  // Rows that leave the ledger leave the selection too. The rows are rebuilt
  // whenever the draft's values change (a bulk edit rebuilds all of them)
  // while their keys stay the same: only a change of keys is worth a prune.
  watch(rows, (list, before) => {
    if (selection.value.keys.size === 0 || sameKeys(list, before)) return;
    selection.value = pruneSelection(selection.value, new Set(list.map((d) => d.key)));
  });

  return {
    filter,
    sort,
    selection,
    filtered,
    orderedKeys,
    selectedRows,
    sortBy: (column: K) => (sort.value = nextSort(sort.value, column)),
    select: (key: string, mods: ClickModifiers) => (selection.value = clickRow(selection.value, key, orderedKeys.value, mods)),
    selectAllFiltered: () => (selection.value = selectAll(orderedKeys.value)),
    clearSelection: () => (selection.value = emptySelection),
    resetFilter: () => (filter.value = emptyFilter()),
  };
}
