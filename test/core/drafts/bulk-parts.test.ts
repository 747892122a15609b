import { afterEach, describe, expect, it } from 'vitest';
import { nextTurn } from '../../../src-main/core/drafts/turn.ts';
import { draftFixture, seedListings, type DraftFixture } from './fixtures.ts';

/**
 * A bulk edit of tens of thousands of rows is classified and written a part
 * at a time, the event loop given back between parts; the draft takes no
 * other change meanwhile; and one cut short between parts (a quit, a crash)
 * is finished at the next start, each row edited exactly once.
 */

let f: DraftFixture | null = null;
afterEach(() => {
  f?.dispose();
  f = null;
});

const ROWS = 12_000;
const priceOf = (i: number) => 100 + (i % 5000);
const tenPercentOff = { op: 'multiply', percent: 90, rounding: 'nearest' } as const;
const draftPrices = (fx: DraftFixture, id: string) =>
  new Map((fx.t.store.db.prepare("SELECT key, price, seq FROM draft_entries WHERE draft_id = ? AND slot = 'L'").all(id) as { key: string; price: number; seq: number }[])
    .map((r) => [r.key, r]));

describe('a bulk edit in parts', () => {
  it('gives the event loop back while it is classified and written, and writes every row', async () => {
    let turns = 0;
    f = draftFixture({ turn: () => ((turns += 1), nextTurn()) });
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    const plan = await f.bulk(id, 'listings', { filter: {} }, tenPercentOff);
    expect(plan.changed).toBe(ROWS);
    // Six parts to classify (2,000 rows each), the figures in steps, five parts to write (2,500 each).
    expect(turns).toBeGreaterThanOrEqual(12);
    const prices = draftPrices(f, id);
    expect(prices.size).toBe(ROWS);
    expect(prices.get(String(1_000_000 + 7))?.price).toBe(Math.round(priceOf(7) * 0.9));
  });

  it('refuses other changes to the draft while it is being written', async () => {
    f = draftFixture();
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    const writing = f.bulk(id, 'listings', { filter: {} }, tenPercentOff);
    expect(f.drafts.busy(id)).toBe(true);
    expect(() => f?.drafts.addChanges(id, [{ kind: 'listing.delete', asset_id: '1000001' }])).toThrow(/bulk edit is being written/);
    expect(() => f?.drafts.removeChanges(id, ['L:1000001'])).toThrow(/bulk edit is being written/);
    await writing;
    expect(f.drafts.busy(id)).toBe(false);
    expect(f.drafts.addChanges(id, [{ kind: 'listing.delete', asset_id: '1000001' }]).added).toBe(1);
  });

  it('is finished at the next start when a quit cuts it short, each row edited once', async () => {
    let stopAt = Infinity;
    let turns = 0;
    f = draftFixture({
      turn: async () => {
        turns += 1;
        if (turns >= stopAt) throw new Error('the app quit');
        await nextTurn();
      },
    });
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    // A row the draft already changed: the edit scales the draft's price, once.
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000003', price: 1_000 }]);
    // Classified in 6 parts and the figures in 3 steps (a turn each), then cut after the second of five parts written.
    turns = 0;
    stopAt = 11;
    await expect(f.bulk(id, 'listings', { filter: {} }, tenPercentOff)).rejects.toThrow(/the app quit/);
    const cut = draftPrices(f, id);
    const seq = Math.max(...[...cut.values()].map((r) => r.seq));
    const written = [...cut.values()].filter((r) => r.seq === seq).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(ROWS);
    expect(f.t.store.db.prepare('SELECT count(*) AS n FROM bulk_writes').get()).toEqual({ n: 1 });

    stopAt = Infinity;
    f.restart();
    await f.drafts.resumeBulkWrites();
    const prices = draftPrices(f, id);
    expect(f.t.store.db.prepare('SELECT count(*) AS n FROM bulk_writes').get()).toEqual({ n: 0 });
    expect(prices.size).toBe(ROWS);
    for (const i of [0, 1, 7, ROWS - 1]) expect(prices.get(String(1_000_000 + i))).toMatchObject({ price: Math.round(priceOf(i) * 0.9), seq });
    expect(prices.get('1000003')?.price).toBe(900);
  });
});
