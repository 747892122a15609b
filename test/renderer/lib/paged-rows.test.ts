import { describe, expect, it } from 'vitest';
import { createPagedRows } from '../../../src-renderer/src/lib/paged-rows.ts';
import { flush } from '../fake-api.ts';

/** A table of `total` rows named by generation, with the fetches it was asked for. */
function source(total: number) {
  const asked: number[] = [];
  let generation = 1;
  let hold: Promise<void> | null = null;
  const rows = createPagedRows<string>({
    pageSize: 10,
    async fetch(offset, limit) {
      asked.push(offset);
      const mine = generation;
      if (hold) await hold;
      return { total, rows: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => `g${mine}:${offset + i}`) };
    },
  });
  return {
    rows, asked,
    next: () => void (generation += 1),
    holdFetches(): () => void {
      let release: () => void = () => undefined;
      hold = new Promise((r) => (release = r));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe('rows of a long table, a page at a time', () => {
  it('asks only for the pages around what is on screen', async () => {
    const s = source(1_000);
    await s.rows.refresh();
    s.rows.show(500, 520);
    await flush();
    expect(s.rows.total.value).toBe(1_000);
    expect(s.rows.rowAt(505)).toBe('g1:505');
    expect(s.rows.rowAt(800)).toBeUndefined();
    expect(new Set(s.asked)).toEqual(new Set([0, 10, 490, 500, 510, 520]));
  });

  it('asks for the pages on screen before the margin around them, since main answers in the order asked', async () => {
    const s = source(1_000);
    await s.rows.refresh();
    s.asked.length = 0;
    s.rows.show(505, 525);
    await flush();
    expect(s.asked).toEqual([510, 500, 520, 490, 530]);
  });

  it('asks first for the page under the viewport, then the page the overscan reaches into: a jump fills the screen one answer sooner', async () => {
    const s = source(1_000);
    await s.rows.refresh();
    s.asked.length = 0;
    // Rows 495..519 drawn: the viewport's 500..514 with 5 rows of overscan each side.
    s.rows.show(495, 520);
    await flush();
    expect(s.asked).toEqual([500, 510, 490, 520, 480]);
    expect(s.rows.rowAt(500)).toBe('g1:500');
  });

  it('swaps a refresh in whole: rows of two states of main never mix, and the old ones stay until the new arrive', async () => {
    const s = source(100);
    s.rows.show(0, 20);
    await s.rows.refresh();
    s.next();
    const release = s.holdFetches();
    const refreshing = s.rows.refresh();
    await flush();
    expect(s.rows.rowAt(0)).toBe('g1:0');
    expect(s.rows.rowAt(15)).toBe('g1:15');
    release();
    await refreshing;
    expect(s.rows.rowAt(0)).toBe('g2:0');
    expect(s.rows.rowAt(15)).toBe('g2:15');
  });

  it('shows the rows on screen as soon as they are in: the margin below them follows without holding them back', async () => {
    let generation = 1;
    let releaseMargin: () => void = () => undefined;
    const margin = new Promise<void>((r) => (releaseMargin = r));
    const rows = createPagedRows<string>({
      pageSize: 10,
      async fetch(offset, limit) {
        const mine = generation;
        if (mine > 1 && offset >= 10) await margin;
        return { total: 100, rows: Array.from({ length: limit }, (_, i) => `g${mine}:${offset + i}`) };
      },
    });
    rows.show(0, 10);
    await rows.refresh();
    await flush();
    expect(rows.rowAt(15)).toBe('g1:15');
    generation = 2;
    const refreshing = rows.refresh();
    await flush();
    // Page 0 is on screen and in: it shows while page 1 (the margin) is still on its way.
    expect(rows.rowAt(0)).toBe('g2:0');
    releaseMargin();
    await refreshing;
    await flush();
    expect(rows.rowAt(15)).toBe('g2:15');
  });

  it('makes one more read for any number of refreshes asked while one runs', async () => {
    const s = source(30);
    s.rows.show(0, 10);
    await flush();
    s.asked.length = 0;
    const release = s.holdFetches();
    const first = s.rows.refresh();
    for (let i = 0; i < 10; i++) void s.rows.refresh();
    release();
    await first;
    await flush();
    // Two passes over the pages on screen (0, 10, 20), not eleven.
    expect(s.asked.filter((o) => o === 0)).toHaveLength(2);
  });
  it('asks for no margin between a refresh and the next one already asked for: the rows of the next one come first', async () => {
    const s = source(1_000);
    s.rows.show(0, 15);
    await s.rows.refresh();
    await flush();
    s.asked.length = 0;
    const release = s.holdFetches();
    const first = s.rows.refresh();
    void s.rows.refresh();
    release();
    await first;
    await flush();
    // Each refresh reads the pages on screen (0, 10); the margin (20) is asked once, after the last.
    expect(s.asked).toEqual([0, 10, 0, 10, 20]);
  });

  it('redraws for a page that reaches the screen, not for the margin around it', async () => {
    const s = source(1_000);
    s.rows.show(0, 15);
    const release = s.holdFetches();
    const refreshing = s.rows.refresh();
    release();
    await refreshing;
    await flush();
    // Page 0 (the rows on screen) and page 1 (rows 10..19, on screen too) drew; page 2 is margin.
    expect(new Set(s.asked)).toEqual(new Set([0, 10, 20]));
    const drawnAfterStart = s.rows.version.value;
    expect(s.rows.rowAt(25)).toBe('g1:25');
    s.rows.show(500, 515);
    await flush();
    // Pages 50 and 51 are on screen, 49 and 52 are margin: two redraws, not four.
    expect(s.rows.version.value - drawnAfterStart).toBe(2);
    expect(s.rows.rowAt(495)).toBe('g1:495');
    expect(s.rows.rowAt(525)).toBe('g1:525');
  });
});
