import { afterEach, describe, expect, it } from 'vitest';
import { nextTurn } from '../../../src-main/core/turn.ts';
import { createLedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import { readPragma } from '../../../src-main/core/store/db.ts';
import type { BulkOp, ChangeInput } from '../../../src-shared/drafts.ts';
import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import { draftFixture, MAIN, seedListings, type DraftFixture } from '../drafts/fixtures.ts';

/**
 * A bulk edit of tens of thousands of rows is classified and written a part
 * at a time, the event loop given back between parts; the draft takes no
 * other change meanwhile; and one cut short between parts (a quit, a crash)
 * is finished at the next start, each row edited exactly once. It is the
 * draft's once journaled, before its parts are written: what the screens
 * read between parts (the rest laid over as a patch) is the edit whole.
 */

let f: DraftFixture | null = null;
afterEach(() => {
  f?.dispose();
  f = null;
});

const ROWS = 12_000;
const priceOf = (i: number) => 100 + (i % 5000);
const tenPercentOff = { op: 'multiply', percent: 90, rounding: 'nearest' } as const;
const countsOf = ({ total, all, changed }: { total: number; all: number; changed: number }) => ({ total, all, changed });
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

  it('classifies nothing in the turn that asks for a preview: its first part has a turn of its own', async () => {
    let classifiedAtFirstTurn: number | null = null;
    const classified = (fx: DraftFixture) => (fx.t.store.db.prepare("SELECT 1 FROM temp.sqlite_master WHERE name = 'bulk_rows'").get()
      ? (fx.t.store.db.prepare('SELECT count(*) AS n FROM temp.bulk_rows').get() as { n: number }).n : 0);
    f = draftFixture({ turn: () => ((classifiedAtFirstTurn ??= f ? classified(f) : null), nextTurn()) });
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '77', price: 4_000, promoted: 0 }]);
    const plan = await createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => 0 }).preview('listings', { filter: {} }, tenPercentOff);
    expect(plan.changed).toBe(ROWS + 1);
    expect(classifiedAtFirstTurn).toBe(0);
  });

  it('writes its parts without waiting for the disk, the last (which ends its journal) durable as every write', async () => {
    f = draftFixture();
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    const { store } = f.t;
    const commits: unknown[] = [];
    const transaction = store.transaction.bind(store);
    store.transaction = <T>(fn: () => T): T => {
      commits.push(readPragma(store, 'synchronous'));
      return transaction(fn);
    };
    await f.bulk(id, 'listings', { filter: {} }, tenPercentOff);
    // The journal's row, then ten parts: nine that do not wait for the disk (1: NORMAL), the last that does (2: FULL).
    expect(commits.slice(-11)).toEqual([2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    expect(readPragma(store, 'synchronous')).toBe(2);
    expect(draftPrices(f, id).size).toBe(ROWS);
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
    // A turn before classifying, one before each of its 13 steps and the figures' 3, then one before each of ten parts: cut after the first.
    turns = 0;
    stopAt = 19;
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

  /** A change the draft has (scaled from its own price), a listing it creates, a row it deletes (left out). */
  const DRAFT_HAS: ChangeInput[] = [
    { kind: 'listing.edit', asset_id: '1000003', price: 1_000, user_note: 'mine' },
    { kind: 'listing.create', asset_id: '77', price: 4_000, promoted: 0 },
    { kind: 'listing.delete', asset_id: '1000009' },
  ];

  /** The ledger's ROWS listings and a draft "big", its turns held by `hold` (see readMidwayAndAfter). */
  function bigDraftHeld(): { fx: DraftFixture; hold: Hold; id: string } {
    const hold: Hold = { gate: null, turnsLeft: null };
    const fx = draftFixture({ turn: heldTurn(hold) });
    f = fx;
    seedListings(fx.t, ROWS);
    return { fx, hold, id: fx.drafts.create('big').id };
  }

  /** Turns that pass while `turnsLeft` is null or above zero, then wait for the gate. */
  interface Hold { gate: Promise<void> | null; turnsLeft: number | null; held?: boolean }
  const heldTurn = (hold: Hold) => async () => {
    await nextTurn();
    if (hold.turnsLeft === null) return;
    if (hold.turnsLeft > 0) hold.turnsLeft -= 1;
    else {
      hold.held = true;
      await hold.gate;
    }
  };

  /**
   * Makes the edit with the turns after its journal held, reads what the
   * screens read while its parts are not all written, lets it finish and
   * reads again: the two readings must be the same.
   */
  async function readMidwayAndAfter(fx: DraftFixture, id: string, domain: LedgerDomain, op: BulkOp, hold: Hold, around: { beforeEdit?: () => void; beforeAfter?: () => void } = {}) {
    const tables = createLedgerTables({ store: fx.t.store, drafts: fx.drafts, now: () => fx.t.store.clock.now() });
    const price = domain === 'listings' ? 'newPrice' : 'price';
    const read = () => ({
      first: tables.page(domain, {}, null, 0, 60),
      byNewPrice: tables.page(domain, {}, { column: price, dir: 'desc' }, 0, 60),
      changedAbove: tables.page(domain, { changedOnly: true, minPrice: 2_000 }, { column: 'price', dir: 'asc' }, 0, 30),
      // As a table that read nothing before counts them.
      counted: countsOf(createLedgerTables({ store: fx.t.store, drafts: fx.drafts, now: () => fx.t.store.clock.now() }).page(domain, {}, null, 0, 1)),
      summary: fx.drafts.list().find((d) => d.id === id),
    });
    fx.drafts.select(id);
    // The table as the screen shows it before the edit.
    tables.page(domain, {}, null, 0, 60);
    around.beforeEdit?.();
    let release = () => {};
    let journaled = false;
    const done = tables.bulk(domain, { filter: {} }, op, () => {
      journaled = true;
      // The first part is let through, the second held.
      hold.turnsLeft = 1;
      hold.gate = new Promise((resolve) => (release = resolve));
    });
    while (!journaled || !hold.held) await nextTurn();
    const slot = domain === 'listings' ? 'L' : 'B';
    const seq = (fx.t.store.db.prepare('SELECT seq FROM bulk_writes WHERE draft_id = ?').get(id) as { seq: number }).seq;
    const writtenMidway = (fx.t.store.db.prepare('SELECT count(*) AS n FROM draft_entries WHERE draft_id = ? AND slot = ? AND seq = ?').get(id, slot, seq) as { n: number }).n;
    const midway = read();
    expect(fx.drafts.busy(id)).toBe(true);
    hold.gate = null;
    hold.turnsLeft = null;
    hold.held = false;
    release();
    const plan = await done;
    expect(fx.drafts.busy(id)).toBe(false);
    around.beforeAfter?.();
    return { midway, after: read(), writtenMidway, plan };
  }

  it('is the draft\'s once journaled: pages, counts and the draft\'s figures read between its parts show the whole edit', async () => {
    const { fx, hold, id } = bigDraftHeld();
    fx.drafts.addChanges(id, DRAFT_HAS);
    const { midway, after, writtenMidway, plan } = await readMidwayAndAfter(fx, id, 'listings', tenPercentOff, hold);
    expect(writtenMidway).toBeGreaterThan(0);
    expect(writtenMidway).toBeLessThan(plan.changed);
    expect(midway).toEqual(after);
    expect(countsOf(midway.first)).toEqual(midway.counted);
    expect(after.first.changed).toBe(ROWS + 1);
    // A row the draft deletes is left out (a NULL status once let it through), so the draft holds one change a row.
    expect(plan.skipped).toEqual([expect.objectContaining({ reason: 'deleted in this draft', count: 1 })]);
    expect(after.summary?.changeCount).toBe(ROWS + 1);
    // The create and the change the draft had are scaled from the draft's own prices.
    expect(JSON.stringify(after.first.rows.find((r) => r.key === '77'))).toContain('3600');
    expect(JSON.stringify(after.first.rows.find((r) => r.key === '1000003'))).toContain('900');
  });

  it('keeps the order by the price after the draft sorted between its parts once they are all written: it is the same order', async () => {
    const { fx, hold, id } = bigDraftHeld();
    const cheapest = String(1_000_000);
    // A price moved under the desk (no change of the draft it hears of) once the parts are written: an order
    // sorted again would put that row first, the order kept from between the parts does not.
    const { midway, after } = await readMidwayAndAfter(fx, id, 'listings', tenPercentOff, hold, {
      beforeAfter: () => void fx.t.store.db.prepare('UPDATE draft_entries SET price = 9999999 WHERE draft_id = ? AND key = ?').run(id, cheapest),
    });
    expect(midway.byNewPrice.rows[0]?.key).not.toBe(cheapest);
    expect(after.byNewPrice.rows.map((r) => r.key)).toEqual(midway.byNewPrice.rows.map((r) => r.key));
    // Sorted afresh, that row comes first: the order read after the parts was the one kept.
    fx.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000001', price: 5 }]);
    const tables = createLedgerTables({ store: fx.t.store, drafts: fx.drafts, now: () => fx.t.store.clock.now() ?? 0 });
    expect(tables.page('listings', {}, { column: 'newPrice', dir: 'desc' }, 0, 5).rows[0]?.key).toBe(cheapest);
  });

  it('keeps the counts read between its parts once they are all written: they are the same counts', async () => {
    const { fx, hold, id } = bigDraftHeld();
    // A change taken out under the desk (no change of the draft it hears of) once the parts are written: counted
    // again, the table would have one change fewer; the counts kept from between the parts do not.
    const { midway, after } = await readMidwayAndAfter(fx, id, 'listings', tenPercentOff, hold, {
      beforeAfter: () => void fx.t.store.db.prepare('DELETE FROM draft_entries WHERE draft_id = ? AND key = ?').run(id, String(1_000_000)),
    });
    expect(midway.first.changed).toBe(ROWS);
    expect([after.first.total, after.first.changed]).toEqual([midway.first.total, midway.first.changed]);
    // Counted afresh after a change of the draft, the row taken out is missed.
    fx.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000001', price: 5 }]);
    const tables = createLedgerTables({ store: fx.t.store, drafts: fx.drafts, now: () => fx.t.store.clock.now() ?? 0 });
    expect(tables.page('listings', {}, null, 0, 5).changed).toBe(ROWS - 1);
  });

  it('counts the table between its parts from the counts read before it and the rows it adds, not every change again', async () => {
    const { fx, hold, id } = bigDraftHeld();
    fx.drafts.addChanges(id, DRAFT_HAS);
    // A change taken out under the desk (no change of the draft it hears of) once the table was read: counted again,
    // the table would have one change fewer; counted on from the counts read before the edit, it does not.
    const { midway } = await readMidwayAndAfter(fx, id, 'listings', tenPercentOff, hold, {
      beforeEdit: () => void fx.t.store.db.prepare('DELETE FROM draft_entries WHERE draft_id = ? AND key = ?').run(id, '1000003'),
    });
    expect(midway.counted.changed).toBe(ROWS + 1);
    expect(countsOf(midway.first)).toEqual({ total: ROWS + 1, all: ROWS + 1, changed: ROWS + 2 });
  });

  it('shows buy orders whole between parts too: quantities, and pauses that leave a created order out', async () => {
    const hold: Hold = { gate: null, turnsLeft: null };
    f = draftFixture({ turn: heldTurn(hold) });
    const orders = Array.from({ length: 6_000 }, (_, i) => ({ sku: `${i};6`, account: MAIN, price: 50 + (i % 4_000), quantity: 1 + (i % 5) }));
    f.t.repos.buyOrders.upsertMany(orders);
    const { id } = f.drafts.create('orders');
    f.drafts.addChanges(id, [{ kind: 'buyOrder.create', sku: 'b;1', price: 5, quantity: 1 }]);
    for (const op of [{ op: 'setQuantity', quantity: 3 }, { op: 'setActive', value: 0 }, { op: 'multiply', percent: 110, rounding: 'up' }] as const) {
      const { midway, after, writtenMidway } = await readMidwayAndAfter(f, id, 'buyOrders', op, hold);
      expect(writtenMidway).toBeGreaterThan(0);
      expect(midway).toEqual(after);
      expect(countsOf(midway.first)).toEqual(midway.counted);
    }
  });

  it('a full disk met between parts holds the edit as the trader was told, says why, and writes the rest once space is freed', async () => {
    f = draftFixture();
    seedListings(f.t, ROWS);
    const { id } = f.drafts.create('big');
    const { store } = f.t;
    const tables = createLedgerTables({ store, drafts: f.drafts, now: () => store.clock.now() });
    f.drafts.select(id);
    let told = false;
    const done = tables.bulk('listings', { filter: {} }, tenPercentOff, () => {
      told = true;
      // The disk fills up the moment the edit is journaled: no part can be written.
      store.setPageLimit((store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
    });
    while (!told) await nextTurn();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(f.drafts.busy(id)).toBe(true);
    expect(() => f?.drafts.addChanges(id, [{ kind: 'listing.delete', asset_id: '1000001' }])).toThrow(/still being written into this draft \(The disk is full/);
    // The screens show the edit the trader was told of, none of it on disk yet.
    expect(tables.page('listings', {}, null, 0, 1).changed).toBe(ROWS);
    expect(draftPrices(f, id).size).toBe(0);

    store.setPageLimit(null);
    await done;
    expect(f.drafts.busy(id)).toBe(false);
    expect(draftPrices(f, id).size).toBe(ROWS);
    expect(store.db.prepare('SELECT count(*) AS n FROM bulk_writes').get()).toEqual({ n: 0 });
  });
});

