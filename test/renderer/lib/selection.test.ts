import { describe, expect, it } from 'vitest';
import { clickRow, emptySelection, pruneSelection, sameKeys, selectAll, selectedInOrder } from '../../../src-renderer/src/lib/selection.ts';

const rows = ['a', 'b', 'c', 'd', 'e', 'f'];
const plain = { range: false, toggle: false };
const shift = { range: true, toggle: false };
const ctrl = { range: false, toggle: true };

describe('selection model', () => {
  it('a plain click selects one row and anchors there', () => {
    const s = clickRow(clickRow(emptySelection, 'b', rows, plain), 'd', rows, plain);
    expect([...s.keys]).toEqual(['d']);
    expect(s.anchor).toBe('d');
  });

  it('shift-click selects the range from the anchor, in either direction', () => {
    const anchored = clickRow(emptySelection, 'c', rows, plain);
    expect(selectedInOrder(clickRow(anchored, 'e', rows, shift), rows)).toEqual(['c', 'd', 'e']);
    expect(selectedInOrder(clickRow(anchored, 'a', rows, shift), rows)).toEqual(['a', 'b', 'c']);
  });

  it('a second shift-click re-ranges from the same anchor instead of growing', () => {
    let s = clickRow(emptySelection, 'c', rows, plain);
    s = clickRow(s, 'f', rows, shift);
    s = clickRow(s, 'd', rows, shift);
    expect(selectedInOrder(s, rows)).toEqual(['c', 'd']);
    expect(s.anchor).toBe('c');
  });

  it('ctrl/cmd-click toggles one row and keeps the rest', () => {
    let s = clickRow(emptySelection, 'a', rows, plain);
    s = clickRow(s, 'c', rows, ctrl);
    s = clickRow(s, 'e', rows, ctrl);
    expect(selectedInOrder(s, rows)).toEqual(['a', 'c', 'e']);
    s = clickRow(s, 'c', rows, ctrl);
    expect(selectedInOrder(s, rows)).toEqual(['a', 'e']);
  });

  it('ctrl+shift adds a range to what is selected', () => {
    let s = clickRow(emptySelection, 'a', rows, plain);
    s = clickRow(s, 'd', rows, ctrl);
    s = clickRow(s, 'f', rows, { range: true, toggle: true });
    expect(selectedInOrder(s, rows)).toEqual(['a', 'd', 'e', 'f']);
  });

  it('shift-click without an anchor behaves as a plain click', () => {
    const s = clickRow(emptySelection, 'c', rows, shift);
    expect([...s.keys]).toEqual(['c']);
  });

  it('select all takes every shown row; prune drops rows that left', () => {
    const all = selectAll(rows);
    expect(all.keys.size).toBe(6);
    const pruned = pruneSelection(all, new Set(['a', 'b']));
    expect([...pruned.keys].sort()).toEqual(['a', 'b']);
    expect(pruneSelection(pruned, new Set(rows))).toBe(pruned);
  });

  it('never mutates a previous state', () => {
    const first = clickRow(emptySelection, 'a', rows, plain);
    clickRow(first, 'b', rows, ctrl);
    expect([...first.keys]).toEqual(['a']);
    expect(emptySelection.keys.size).toBe(0);
  });

  it('tells a list rebuilt with new values for the same rows from one whose rows changed', () => {
    const rows = (...keys: string[]) => keys.map((key) => ({ key }));
    expect(sameKeys(rows('a', 'b', 'c'), rows('a', 'b', 'c'))).toBe(true);
    expect(sameKeys(rows('a', 'b', 'c'), rows('a', 'b'))).toBe(false);
    expect(sameKeys(rows('a', 'b', 'c'), rows('a', 'x', 'c'))).toBe(false);
    expect(sameKeys(rows('a'), undefined)).toBe(false);
  });
});
