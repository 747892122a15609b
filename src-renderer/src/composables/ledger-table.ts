import { computed, ref, shallowRef, watch, type Ref } from 'vue';
import type { DisplayRow } from '../lib/draft-overlay.ts';
import { emptyFilter, type LedgerFilter } from '../lib/ledger-filter.ts';
import { clickRow, emptySelection, pruneSelection, sameKeys, selectAll, type ClickModifiers, type SelectionState } from '../lib/selection.ts';
import { inOrder, nextSort, sortOrder, type SortSpec } from '../lib/sorting.ts';

/**
 * The state shared by the Listings and Buy orders tables: sort, filter and
 * selection over display rows. Sorting runs before filtering, so typing in a
 * filter only filters an already sorted list (no re-sort per keystroke).
 * `sortKey` reads the ledger's row (`d.row`) only, never the draft's values:
 * a row does not move while it is being repriced, and rows rebuilt for new
 * draft values over the same ledger rows keep their order without a re-sort.
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

  let last: { rows: readonly D[]; spec: SortSpec<K>; order: readonly number[] } | null = null;
  const sorted = computed<readonly D[]>(() => {
    const s = sort.value;
    const list = rows.value;
    if (s === null) {
      last = null;
      return list;
    }
    const order = last !== null && last.spec === s && sameLedgerRows(list, last.rows)
      ? last.order
      : sortOrder(list, (d) => sortKey(s.column, d), s.dir);
    last = { rows: list, spec: s, order };
    return inOrder(list, order);
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

/** Whether both lists show the same ledger row objects at each index (what the sort keys read). */
function sameLedgerRows<Row, Pending>(a: readonly DisplayRow<Row, Pending>[], b: readonly DisplayRow<Row, Pending>[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]?.row !== b[i]?.row) return false;
  return true;
}
