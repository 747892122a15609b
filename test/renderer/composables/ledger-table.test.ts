import { describe, expect, it } from 'vitest';
import { effectScope, nextTick, shallowRef } from 'vue';
import { useLedgerTable } from '../../../src-renderer/src/composables/ledger-table.ts';
import type { DisplayRow } from '../../../src-renderer/src/lib/draft-overlay.ts';
import type { LedgerFilter } from '../../../src-renderer/src/lib/ledger-filter.ts';

interface Row { id: string; price: number }
type D = DisplayRow<Row, { price?: number }>;

const display = (rows: readonly Row[], pending: Record<string, number> = {}): D[] =>
  rows.map((row) => ({ key: row.id, row, change: pending[row.id] === undefined ? null : 'edit', pending: pending[row.id] === undefined ? null : { price: pending[row.id] }, changeId: null, problem: null }));

function table(rows: readonly D[]) {
  const source = shallowRef<readonly D[]>(rows);
  let keyCalls = 0;
  const scope = effectScope();
  const t = scope.run(() =>
    useLedgerTable<Row, { price?: number }, 'price'>(source, (_c, d) => (keyCalls++, d.row.price), (list: readonly D[], _f: LedgerFilter) => list),
  );
  if (!t) throw new Error('no table');
  return { t, source, keyCalls: () => keyCalls, stop: () => scope.stop() };
}

describe('ledger table state', () => {
  const ledger: Row[] = [{ id: 'a', price: 300 }, { id: 'b', price: 100 }, { id: 'c', price: 200 }];

  it('keeps its sorted order for rows rebuilt with new draft values, without sorting again', () => {
    const { t, source, keyCalls, stop } = table(display(ledger));
    t.sortBy('price');
    expect(t.filtered.value.map((d) => d.key)).toEqual(['b', 'c', 'a']);
    const calls = keyCalls();
    source.value = display(ledger, { b: 999, a: 1 });
    // Sorted by the ledger's prices still, and no sort key was read.
    expect(t.filtered.value.map((d) => d.key)).toEqual(['b', 'c', 'a']);
    expect(t.filtered.value[0]?.pending?.price).toBe(999);
    expect(keyCalls()).toBe(calls);
    // New ledger rows do sort again.
    source.value = display([...ledger, { id: 'd', price: 50 }]);
    expect(t.filtered.value.map((d) => d.key)).toEqual(['d', 'b', 'c', 'a']);
    stop();
  });

  it('prunes the selection when rows leave, and leaves it as it was when only values change', async () => {
    const { t, source, stop } = table(display(ledger));
    t.selectAllFiltered();
    const selected = t.selection.value;
    source.value = display(ledger, { a: 5 });
    await nextTick();
    expect(t.selection.value).toBe(selected);
    source.value = display(ledger.slice(1));
    await nextTick();
    expect([...t.selection.value.keys]).toEqual(['b', 'c']);
    stop();
  });
});
