import { describe, expect, it } from 'vitest';
import {
  clickSelection, countSelected, emptySelection, isSelected, selectAllMatching, selectionValue, type TableSelection,
} from '../../../src-renderer/src/lib/table-selection.ts';

const keys = Array.from({ length: 10 }, (_, i) => `k${i}`);
const between = async (from: number, to: number) => keys.slice(from, to + 1);
const plain = { range: false, toggle: false };
const click = (s: TableSelection, i: number, mods = plain) => clickSelection(s, i, keys[i] as string, mods, between);

describe('the selection of a ledger table, as a value main understands', () => {
  it('selects one row on a click, adds and removes with Ctrl/Cmd, ranges with Shift', async () => {
    let s = await click(emptySelection, 2);
    expect(selectionValue(s)).toEqual({ ids: ['k2'] });
    s = await click(s, 5, { range: false, toggle: true });
    s = await click(s, 2, { range: false, toggle: true });
    expect(selectionValue(s)).toEqual({ ids: ['k5'] });
    // The range runs from the last row clicked (the anchor).
    s = await click(s, 5);
    s = await click(s, 8, { range: true, toggle: false });
    expect(selectionValue(s)).toEqual({ ids: ['k5', 'k6', 'k7', 'k8'] });
  });

  it('selects every matching row as a filter, unticks a few as exceptions, and counts from main’s total', async () => {
    let s = selectAllMatching({ text: 'key' });
    expect(countSelected(s, 50_000)).toBe(50_000);
    s = await click(s, 3, { range: false, toggle: true });
    expect(isSelected(s, 'k3')).toBe(false);
    expect(isSelected(s, 'k4')).toBe(true);
    expect(countSelected(s, 50_000)).toBe(49_999);
    const value = selectionValue(s);
    expect(value).toEqual({ filter: { text: 'key' }, except: ['k3'] });
    expect(JSON.stringify(value).length).toBeLessThan(60);
    // Shift+Ctrl over a range takes the range back in.
    s = await click(s, 1, { range: true, toggle: true });
    expect(selectionValue(s)).toEqual({ filter: { text: 'key' }, except: [] });
  });

  it('asks for the keys of a range it cannot see', async () => {
    const asked: Array<[number, number]> = [];
    const s = await clickSelection({ kind: 'keys', keys: new Set(), anchor: 10 }, 30_000, 'far', { range: true, toggle: false }, async (from, to) => {
      asked.push([from, to]);
      return ['a', 'b'];
    });
    expect(asked).toEqual([[10, 30_000]]);
    expect(selectionValue(s)).toEqual({ ids: ['a', 'b'] });
  });
});
