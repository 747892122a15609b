import { describe, expect, it } from 'vitest';
import { createRowidAnchors } from '../../../src-main/core/store/rowid-anchors.ts';

/** A store's rows version, moved by hand. */
function rowsVersion() {
  const store = { ledgerRowsVersion: 0 };
  return { store, rowsCameOrWent: () => (store.ledgerRowsVersion += 1) };
}

describe('rowid anchors: where jumps into a table landed, while its rows hold', () => {
  it('answers the anchor nearest at or before an offset, per table', () => {
    const { store } = rowsVersion();
    const anchors = createRowidAnchors(store);
    expect(anchors.before('listings', 500)).toBeNull();
    anchors.keep('listings', 1_000, 1_210);
    anchors.keep('listings', 300, 330);
    anchors.keep('listings', 20_000, 24_017);
    expect(anchors.before('listings', 299)).toBeNull();
    expect(anchors.before('listings', 300)).toEqual({ offset: 300, rowid: 330 });
    expect(anchors.before('listings', 999)).toEqual({ offset: 300, rowid: 330 });
    expect(anchors.before('listings', 5_000)).toEqual({ offset: 1_000, rowid: 1_210 });
    expect(anchors.before('listings', 90_000)).toEqual({ offset: 20_000, rowid: 24_017 });
    expect(anchors.before('buy_orders', 90_000)).toBeNull();
    // The same offset learned again keeps one anchor, the latest.
    anchors.keep('listings', 300, 331);
    expect(anchors.before('listings', 300)).toEqual({ offset: 300, rowid: 331 });
  });

  it('drops every anchor of the tables once rows came or went', () => {
    const { store, rowsCameOrWent } = rowsVersion();
    const anchors = createRowidAnchors(store);
    anchors.keep('listings', 1_000, 1_210);
    anchors.keep('buy_orders', 10, 12);
    rowsCameOrWent();
    expect(anchors.before('listings', 5_000)).toBeNull();
    expect(anchors.before('buy_orders', 50)).toBeNull();
    anchors.keep('listings', 2_000, 2_400);
    expect(anchors.before('listings', 5_000)).toEqual({ offset: 2_000, rowid: 2_400 });
  });

  it('starts again from none past its bound, rather than grow without end', () => {
    const { store } = rowsVersion();
    const anchors = createRowidAnchors(store);
    for (let i = 0; i < 4_096; i++) anchors.keep('listings', i * 10, i * 11);
    expect(anchors.before('listings', 40_955)).toEqual({ offset: 40_950, rowid: 45_045 });
    anchors.keep('listings', 5, 6);
    expect(anchors.before('listings', 40_955)).toEqual({ offset: 5, rowid: 6 });
  });
});
