import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerTables, type LedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { ledgerPage } from '../../../src-shared/ledger.ts';
import { draftFixture, ledgerListing, MAIN, seedListings, type DraftFixture } from '../drafts/fixtures.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';
import type { LedgerFilter } from '../../../src-shared/ledger.ts';

let f: DraftFixture;
afterEach(() => f.dispose());

function setup(rows = 0): LedgerTables {
  f = draftFixture();
  if (rows > 0) seedListings(f.t, rows);
  return createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => f.t.store.clock.now() });
}

const keysOf = (t: LedgerTables, ...args: Parameters<LedgerTables['page']>) => t.page(...args).rows.map((r) => r.key);

describe('ledger tables: the draft laid over the ledger, one page at a time', () => {
  it('jumps to a deep page, with creates first and rowids left by deleted rows, to the rows a scroll reaches', () => {
    const t = setup(3_000);
    // Gaps in the rowids: rows that left the ledger.
    f.t.store.db.exec("DELETE FROM listings WHERE CAST(asset_id AS INTEGER) % 7 = 3");
    f.t.store.markLedgerChanged();
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: '77', price: 900, promoted: 0 },
      { kind: 'listing.create', asset_id: '78', price: 901, promoted: 0 },
      { kind: 'listing.edit', asset_id: '1002000', price: 4321 },
    ]);
    const all = keysOf(t, 'listings', {}, null, 0, 5_000);
    expect(all.slice(0, 3)).toEqual(['77', '78', '1000000']);
    for (const offset of [1, 2, 3, 1_000, 2_500, all.length - 10, all.length]) {
      // A new draft version each time: no place of an earlier page is known, the jump starts cold.
      f.drafts.refresh(id, []);
      expect(keysOf(t, 'listings', {}, null, offset, 20), `offset ${offset}`).toEqual(all.slice(offset, offset + 20));
    }
    f.drafts.refresh(id, []);
    expect(t.page('listings', {}, null, all.indexOf('1002000'), 3).rows[0]).toMatchObject({ key: '1002000', pending: { price: 4321 } });

    // The changed figure of the whole table (counted from the draft's side) agrees with the rows a "changed" filter finds,
    // a row both edited and deleted counted once.
    f.drafts.addChanges(id, [{ kind: 'listing.delete', asset_id: '1002000' }, { kind: 'listing.delete', asset_id: '1000001' }]);
    const whole = t.page('listings', {}, null, 0, 1);
    expect(whole.changed).toBe(t.page('listings', { changedOnly: true }, null, 0, 1).total);
    expect(whole.changed).toBe(4);
  });

  it('jumps from where jumps before landed to the rows a scroll reaches, and not once rows came or went', () => {
    const t = setup(3_000);
    // The rows as a scroll reads them, from tables of their own (nothing learned from the jumps below).
    const rows = () => keysOf(createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => f.t.store.clock.now() }), 'listings', {}, null, 0, 5_000);
    // Pages out of order, as a dragged scrollbar asks them, none right after a row served before: each steps from
    // the nearest jump before it (store/rowid-anchors.ts).
    const jumps = [2_000, 500, 2_900, 1_000, 1_030, 2_100, 10, 2_999, 1_500];
    const expectJumps = (label: string) => {
      const all = rows();
      for (const offset of jumps) expect(keysOf(t, 'listings', {}, null, offset, 25), `${label}: offset ${offset}`).toEqual(all.slice(offset, offset + 25));
    };
    expectJumps('first');
    // A price changed moves no row: the anchors hold.
    f.t.repos.listings.update('1002500', { price: 9_999 });
    expectJumps('a price changed');
    expect(t.page('listings', {}, null, 2_500, 1).rows[0]).toMatchObject({ key: '1002500', price: 9_999 });
    // Rows went (the first hundred and every tenth) and came (at the end): every anchor before is wrong now.
    f.t.repos.listings.remove([...Array.from({ length: 100 }, (_, i) => String(1_000_000 + i)), ...Array.from({ length: 300 }, (_, i) => String(1_000_005 + i * 10))]);
    f.t.repos.listings.upsertMany(Array.from({ length: 50 }, (_, i) => ledgerListing(String(2_000_000 + i), { price: 500 })));
    expectJumps('rows came and went');
    expect(rows()).toHaveLength(3_000 - 100 - 290 + 50);
  });

  it('jumps deep into the price order to the rows a scroll down the same order reaches, created rows and ties included', () => {
    const t = setup(2_000);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: '77', price: 150, promoted: 0 },
      { kind: 'listing.create', asset_id: '78', price: 150, promoted: 0 },
      { kind: 'listing.edit', asset_id: '1000500', price: 4321 },
    ]);
    for (const dir of ['asc', 'desc'] as const) {
      const sort = { column: 'price', dir } as const;
      const scrolled: string[] = [];
      for (let offset = 0; offset < 2_002; offset += 100) scrolled.push(...keysOf(t, 'listings', {}, sort, offset, 100));
      expect(new Set(scrolled).size).toBe(2_002);
      for (const offset of [1, 150, 999, 1_500, 1_990]) {
        // A new draft version each time: no place of an earlier page is known, the jump starts cold.
        f.drafts.refresh(id, []);
        expect(keysOf(t, 'listings', {}, sort, offset, 30), `${dir} offset ${offset}`).toEqual(scrolled.slice(offset, offset + 30));
        // The page after a jump goes on from the jump's last row.
        expect(keysOf(t, 'listings', {}, sort, offset + 30, 30), `${dir} after ${offset}`).toEqual(scrolled.slice(offset + 30, offset + 60));
      }
    }
  });

  it('turns a sort round to the exact reverse of its rows, page by page and by a jump, with ties broken the same way', () => {
    const t = setup(1_000);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: '77', price: 150, promoted: 0 },
      ...Array.from({ length: 300 }, (_, i) => ({ kind: 'listing.edit' as const, asset_id: String(1_000_000 + i * 2), price: 500 + (i % 7) })),
    ]);
    for (const column of ['newPrice', 'note'] as const) {
      const pages = (dir: 'asc' | 'desc') => Array.from({ length: 11 }, (_, p) => keysOf(t, 'listings', {}, { column, dir }, p * 100, 100)).flat();
      const asc = pages('asc');
      expect(asc).toHaveLength(1_001);
      expect(pages('desc'), column).toEqual([...asc].reverse());
      expect(keysOf(t, 'listings', {}, { column, dir: 'desc' }, 990, 20), `${column} jump`).toEqual([...asc].reverse().slice(990));
    }
  });

  it('answers a viewport with totals, and lays the current draft over it', async () => {
    const t = setup(50_000);
    const empty = t.page('listings', {}, null, 0, 3);
    expect(empty).toMatchObject({ total: 50_000, all: 50_000, changed: 0, draftId: null });
    expect(empty.rows.map((r) => r.key)).toEqual(['1000000', '1000001', '1000002']);

    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1000001', price: 4321 },
      { kind: 'listing.delete', asset_id: '1000002' },
      { kind: 'listing.create', asset_id: '77', price: 900, promoted: 1, sku: '5021;6' },
    ]);
    const page = t.page('listings', {}, null, 0, 4);
    expect(page).toMatchObject({ total: 50_001, all: 50_001, changed: 3, draftId: id });
    // What the draft creates comes first; then the ledger in its order.
    expect(page.rows.map((r) => [r.key, r.change, r.pending])).toEqual([
      ['77', 'create', null],
      ['1000000', null, null],
      ['1000001', 'edit', { price: 4321 }],
      ['1000002', 'delete', null],
    ]);
    // One viewport of a 50,000-row table is small enough to cross the bridge at every scroll.
    const viewport = t.page('listings', {}, null, 25_000, 100);
    expect(JSON.stringify(viewport).length).toBeLessThan(64 * 1024);
    expect(ledgerPage.safeParse({ ...viewport, domain: 'listings', stamps: { ledger: 1, drafts: 1 }, offset: 25_000 }).success).toBe(true);
  });

  it('counts the rows a draft changes the same way whether or not a filter makes it visit every row', async () => {
    const t = setup(200);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1000001', price: 4321 },
      { kind: 'listing.delete', asset_id: '1000002' },
      // Edited, then deleted: one changed row.
      { kind: 'listing.edit', asset_id: '1000003', price: 1 },
      { kind: 'listing.delete', asset_id: '1000003' },
      { kind: 'listing.create', asset_id: '77', price: 900, promoted: 1, sku: '5021;6' },
      // Listed again after a delete: one changed row.
      { kind: 'listing.delete', asset_id: '1000004' },
      { kind: 'listing.create', asset_id: '1000004', price: 950, promoted: 0, sku: '5021;6' },
      // Edits of a listing not in the ledger are not rows of the table.
      { kind: 'listing.edit', asset_id: '424242', price: 5 },
    ]);
    f.drafts.refresh(id, []);
    const fast = t.page('listings', {}, null, 0, 1);
    // minPrice 0 matches every row, and makes the query visit each one.
    const visited = t.page('listings', { minPrice: 0 }, null, 0, 1);
    expect(fast.total).toBe(visited.total);
    expect(fast.changed).toBe(visited.changed);
    expect(fast.changed).toBe(5);
    await t.bulk('listings', { filter: {} }, { op: 'addCents', cents: 3 });
    expect(t.page('listings', {}, null, 0, 1).changed).toBe(t.page('listings', { minPrice: 0 }, null, 0, 1).changed);
  });

  it('keeps its unfiltered counts through edits of rows it holds, and counts again when rows come or go', async () => {
    const t = setup(100);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1000001', price: 4321 },
      { kind: 'listing.create', asset_id: '77', price: 900, promoted: 1, sku: '5021;6' },
    ]);
    const counts = () => {
      const { total, all, changed } = t.page('listings', {}, null, 0, 1);
      return { total, all, changed };
    };
    expect(counts()).toEqual({ total: 101, all: 101, changed: 2 });
    const rowsVersion = f.t.store.ledgerRowsVersion;
    // A price and a note changed where they are (an apply's edit): the same rows, the same counts.
    f.t.repos.listings.update('1000002', { price: 77, user_note: 'moved' });
    expect(f.t.store.ledgerRowsVersion).toBe(rowsVersion);
    expect(counts()).toEqual({ total: 101, all: 101, changed: 2 });
    expect(t.page('listings', { text: 'moved' }, null, 0, 5).rows.map((r) => [r.key, r.price])).toEqual([['1000002', 77]]);
    // Rows come (the draft's create among them, no longer a row it creates) and go (the row it edits).
    f.t.repos.listings.upsertMany([
      ledgerListing('77', { price: 900, promoted: 1, sku: '5021;6', user_note: '' }),
      ledgerListing('78', { price: 10, promoted: 0, sku: '5021;6', user_note: '' }),
    ]);
    expect(counts()).toEqual({ total: 102, all: 102, changed: 2 });
    f.t.repos.listings.remove(['1000001']);
    expect(counts()).toEqual({ total: 101, all: 101, changed: 1 });
  });

  it('keeps a draft\'s counts when it is selected again: nothing in it moved', () => {
    const t = setup(100);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000001', price: 4321 }, { kind: 'listing.edit', asset_id: '1000002', price: 4321 }]);
    const changed = () => t.page('listings', {}, null, 0, 1).changed;
    expect(changed()).toBe(2);
    f.drafts.create('other');
    expect(changed()).toBe(0);
    // A change taken out under the desk (no change of the draft it hears of): counted again, the table would show it.
    f.t.store.db.prepare('DELETE FROM draft_entries WHERE draft_id = ? AND key = ?').run(id, '1000002');
    f.drafts.select(id);
    expect(changed()).toBe(2);
    // Changes added move the counts by what they did to their own rows (the change taken out unseen stays unseen)…
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000003', price: 4321 }]);
    expect(changed()).toBe(3);
    // …and a move the desk cannot tell the size of (an apply's) counts again.
    f.drafts.refresh(id, []);
    expect(changed()).toBe(2);
  });

  it('moves its unfiltered counts by what each call did to its own rows, to the counts a count of the whole draft reads', () => {
    const t = setup(60);
    f.t.repos.buyOrders.upsertMany(Array.from({ length: 20 }, (_, i) => ({ sku: `${6000 + i};6`, account: MAIN, price: 100 + i, quantity: 2, active: 1 as const })));
    const { id } = f.drafts.create('d');
    const counted = (domain: 'listings' | 'buyOrders') => {
      const { total, all, changed } = createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => f.t.store.clock.now() }).page(domain, {}, null, 0, 1);
      return { total, all, changed };
    };
    const served = (domain: 'listings' | 'buyOrders') => {
      const { total, all, changed } = t.page(domain, {}, null, 0, 1);
      return { total, all, changed };
    };
    // A fixed sequence drawn at random: edits, creates, deletes, edits back to the ledger's price, edits of created rows
    // and removals, over rows held and not, with a delete-all now and then (the table counts itself while one is open).
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const asset = () => String(next(4) === 0 ? 9_000 + next(8) : 1_000_000 + next(70));
    const sku = () => `${next(4) === 0 ? 7000 + next(5) : 6000 + next(24)};6`;
    const input = (): ChangeInput => {
      switch (next(9)) {
        case 0: return { kind: 'listing.create', asset_id: asset(), price: 500 + next(3), promoted: 0 };
        case 1: return { kind: 'listing.delete', asset_id: asset() };
        case 2: return { kind: 'listing.edit', asset_id: asset(), price: 100 + next(80) };
        case 3: return { kind: 'buyOrder.create', sku: sku(), price: 50, quantity: 1 };
        case 4: return { kind: 'buyOrder.edit', sku: sku(), price: 100 + next(30) };
        case 5: return { kind: 'buyOrder.delete', sku: sku() };
        case 6: return next(6) === 0 ? { kind: 'listing.deleteAll', active_only: next(2) === 0 } : { kind: 'listing.edit', asset_id: asset(), price: 1000 };
        case 7: return next(6) === 0 ? { kind: 'buyOrder.deleteAll' } : { kind: 'buyOrder.edit', sku: sku(), price: 7 };
        default: return { kind: 'listing.edit', asset_id: asset(), price: 100 + next(5) };
      }
    };
    let moved = 0;
    for (let step = 0; step < 150; step++) {
      const since = f.drafts.views.version(id);
      if (next(5) === 0) {
        const open = f.drafts.entries(id).map((e) => e.target);
        f.drafts.removeChanges(id, [open[next(Math.max(1, open.length))] ?? 'L:1000000']);
      } else {
        f.drafts.addChanges(id, Array.from({ length: 1 + next(6) }, input));
      }
      if (f.drafts.views.movedSince(id, since, 'listings') !== null) moved += 1;
      for (const domain of ['listings', 'buyOrders'] as const) expect(served(domain), `step ${step}, ${domain}`).toEqual(counted(domain));
    }
    expect(moved).toBeGreaterThan(100);
    // The counts were moved, not counted: a row taken out behind the desk (nothing does that) is not seen until a count.
    f.drafts.removeChanges(id, f.drafts.entries(id).filter((e) => e.target === 'LA' || e.target === 'BA').map((e) => e.target));
    expect(served('listings')).toEqual(counted('listings'));
    f.t.store.db.prepare("DELETE FROM listings WHERE asset_id = '1000059'").run();
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000001', price: 1 }]);
    expect(served('listings').all).toBe(counted('listings').all + 1);
  });

  it('counts a write\'s move only for a table that serves the draft\'s counts', () => {
    const t = setup(10);
    const { id } = f.drafts.create('d');
    expect(t.page('listings', {}, null, 0, 1).changed).toBe(0);
    const write = (inputs: ChangeInput[]) => {
      const since = f.drafts.views.version(id);
      f.drafts.addChanges(id, inputs);
      return { listings: f.drafts.views.movedSince(id, since, 'listings'), buyOrders: f.drafts.views.movedSince(id, since, 'buyOrders') };
    };
    // Buy orders served nothing yet: their move is not counted (the first page of them counts).
    expect(write([{ kind: 'listing.edit', asset_id: '1000001', price: 1 }, { kind: 'buyOrder.create', sku: '5021;6', price: 50, quantity: 1 }]))
      .toEqual({ listings: { created: 0, changed: 1 }, buyOrders: null });
    expect(t.page('buyOrders', {}, null, 0, 1)).toMatchObject({ total: 1, changed: 1 });
    expect(write([{ kind: 'buyOrder.create', sku: '5022;6', price: 50, quantity: 1 }]))
      .toEqual({ listings: { created: 0, changed: 0 }, buyOrders: { created: 1, changed: 1 } });
    expect(t.page('buyOrders', {}, null, 0, 1)).toMatchObject({ total: 2, changed: 2 });
  });

  it('starts on the counts kept at the last close, and counts again after a desk that did not close or once anything moved', () => {
    f = draftFixture();
    seedListings(f.t, 200);
    const open = () => createLedgerTables({ store: f.t.store, drafts: f.drafts, settings: f.t.repos.settings, now: () => f.t.store.clock.now() });
    const counts = (t: LedgerTables, filter = {}) => {
      const { total, all, changed } = t.page('listings', filter, null, 0, 1);
      return { total, all, changed };
    };
    // Rows taken out behind the desk's back (nothing does that while it is closed: the profile is its alone), so
    // that what a page shows tells kept counts from counted ones.
    const dropBehind = (asset: string) => f.t.store.db.prepare('DELETE FROM listings WHERE asset_id = ?').run(asset);
    let t = open();
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000001', price: 4321 }, { kind: 'listing.delete', asset_id: '1000002' }]);
    expect(counts(t)).toEqual({ total: 200, all: 200, changed: 2 });
    t.keepCounts();

    f.restart();
    dropBehind('1000003');
    t = open();
    expect(counts(t)).toEqual({ total: 200, all: 200, changed: 2 });
    // Only the unfiltered counts are kept: a filter counts.
    expect(counts(t, { changedOnly: true })).toEqual({ total: 2, all: 199, changed: 2 });
    // Changes added move the kept counts by what they did to their own rows (the row dropped unseen stays unseen)…
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000004', price: 1 }]);
    expect(counts(t)).toEqual({ total: 200, all: 200, changed: 3 });
    // …and once the draft moves by what the desk cannot tell the size of (an apply), it counts.
    f.drafts.refresh(id, []);
    expect(counts(t)).toEqual({ total: 199, all: 199, changed: 3 });

    // A desk that ends without closing leaves no counts (they were taken out as the store opened): the next start counts.
    f.restart();
    dropBehind('1000005');
    t = open();
    expect(counts(t)).toEqual({ total: 198, all: 198, changed: 3 });
    t.keepCounts();

    // Kept, then rows come or go after the start: counted again.
    f.restart();
    t = open();
    expect(counts(t)).toEqual({ total: 198, all: 198, changed: 3 });
    t.keepCounts();

    // Kept through another draft shown and this one selected again: nothing in it moved.
    f.restart();
    dropBehind('1000006');
    t = open();
    f.drafts.select(f.drafts.create('shown meanwhile').id);
    expect(counts(t)).toEqual({ total: 197, all: 197, changed: 0 });
    f.drafts.select(id);
    expect(counts(t)).toEqual({ total: 198, all: 198, changed: 3 });
    f.t.repos.listings.remove(['1000001']);
    f.t.store.markLedgerChanged();
    expect(counts(t)).toEqual({ total: 196, all: 196, changed: 2 });

    // Another draft shown: its own counts.
    f.t.repos.settings.set('ledger.countsAtClose', { draftId: id, listings: { created: 0, ledger: 5, changed: 5, all: 5 } });
    f.restart();
    const other = f.drafts.create('other');
    f.drafts.select(other.id);
    t = open();
    expect(counts(t)).toEqual({ total: 196, all: 196, changed: 0 });
  });

  it('sorts by the row values, keeps rows put while they are repriced, and places created rows in order', async () => {
    const t = setup(100);
    const { id } = f.drafts.create('d');
    const cheapest = keysOf(t, 'listings', {}, { column: 'price', dir: 'asc' }, 0, 3);
    expect(cheapest).toEqual(['1000000', '1000001', '1000002']);
    // Repricing the cheapest row does not move it: the table sorts and filters by the ledger's value.
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000000', price: 99_999 }]);
    expect(keysOf(t, 'listings', {}, { column: 'price', dir: 'asc' }, 0, 1)).toEqual(['1000000']);
    // A created row sorts by its own price, among the ledger's.
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '55', price: 101, promoted: 0 }]);
    expect(keysOf(t, 'listings', {}, { column: 'price', dir: 'asc' }, 0, 3)).toEqual(['1000000', '55', '1000001']);
    expect(keysOf(t, 'listings', {}, { column: 'price', dir: 'desc' }, 0, 1)).toEqual(['1000099']);
    expect(() => t.page('listings', {}, { column: 'filled', dir: 'asc' }, 0, 1)).toThrow(/cannot be sorted by filled/);
  });

  it('filters by text in asset ID, listing ID, SKU and note, by ranges and flags, and by "changed only"', async () => {
    const t = setup(1_000);
    expect(t.page('listings', { text: 'L1000042' }, null, 0, 10).rows.map((r) => r.key)).toEqual(['1000042']);
    expect(t.page('listings', { text: 'FAST' }, null, 0, 10).total).toBe(143);
    expect(t.page('listings', { sku: '5001;6', maxPrice: 200 }, null, 0, 100).rows.every((r) => r.sku === '5001;6' && r.price <= 200)).toBe(true);
    expect(t.page('listings', { promoted: 1 }, null, 0, 1).total).toBe(334);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000005', promoted: 1 }]);
    expect(t.page('listings', { changedOnly: true }, null, 0, 10).rows.map((r) => r.key)).toEqual(['1000005']);
  });

  it('resolves "all that match, minus these" in main: a select-all of 50,000 rows is a few bytes', async () => {
    const t = setup(50_000);
    const selection = { filter: { sku: '5003;6' }, except: ['1000003'] };
    expect(JSON.stringify(selection).length).toBeLessThan(100);
    const r = await t.bulk('listings', selection, { op: 'setPrice', cents: 4242 });
    expect(r.changed).toBe(999);
    expect(f.drafts.entries(r.draftId).some((e) => e.target === 'L:1000003')).toBe(false);
    expect(t.page('listings', { changedOnly: true }, null, 0, 1).total).toBe(999);
  });

  it('edits into the current draft, making one when there is none, and reverts and deletes by selection', async () => {
    const t = setup(10);
    expect(f.drafts.current()).toBeNull();
    const bulk = await t.bulk('listings', { ids: ['1000001', '1000002'] }, { op: 'setPromoted', value: 1 });
    expect(f.drafts.current()).toBe(bulk.draftId);
    expect(t.revertRows('listings', { ids: ['1000001'] })).toEqual({ draftId: bulk.draftId, reverted: 1 });
    f.drafts.addChanges(bulk.draftId, [{ kind: 'listing.create', asset_id: '88', price: 100, promoted: 0 }]);
    const deleted = t.deleteRows('listings', { ids: ['1000003', '88'] });
    expect(deleted.errors).toEqual([]);
    expect(t.page('listings', { changedOnly: true }, null, 0, 10).rows.map((r) => [r.key, r.change])).toEqual([
      ['1000002', 'edit'], ['1000003', 'delete'],
    ]);
  });

  it('shows every row a delete-all removes, and says what it does to pending edits before it is drafted', async () => {
    const t = setup(0);
    f.t.repos.listings.upsertMany([ledgerListing('1'), ledgerListing('2'), ledgerListing('3', { state: 'sold' })]);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      { kind: 'listing.edit', asset_id: '1', price: 5 },
      { kind: 'listing.edit', asset_id: '3', price: 6 },
      { kind: 'listing.create', asset_id: '9', price: 7, promoted: 0 },
    ]);
    // Active only: the sold listing stays, with its edit; the active one's edit is replaced.
    expect(t.deleteAllImpact('listings', true)).toEqual({ removes: 2, replacesChanges: 1, keepsCreates: 1 });
    expect(t.deleteAllImpact('listings', false)).toEqual({ removes: 3, replacesChanges: 2, keepsCreates: 1 });
    f.drafts.addChanges(id, [{ kind: 'listing.deleteAll', active_only: true }]);
    expect(t.page('listings', {}, null, 0, 10).rows.map((r) => [r.key, r.change, r.removedByDeleteAll, r.pending])).toEqual([
      ['9', 'create', false, null],
      ['1', 'delete', true, null],
      ['2', 'delete', true, null],
      ['3', 'edit', false, { price: 6 }],
    ]);
  });

  it('marks a row whose listing ID is unknown as such, and a bulk edit leaves it out with the reason', async () => {
    const t = setup(3);
    f.t.repos.listings.upsert({ ...ledgerListing('7'), listing_id: null, account: MAIN });
    const row = t.page('listings', { text: '7' }, null, 0, 5).rows.find((r) => r.key === '7');
    expect(row).toMatchObject({ state: 'id_unknown', blocked: expect.stringMatching(/listing ID is unknown/) });
    const r = await t.bulk('listings', { filter: {} }, { op: 'addCents', cents: 1 });
    expect(r.changed).toBe(3);
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/listing ID is unknown/), count: 1, sample: ['7'] }]);
  });

  it('shows a listing sold in a trade with its reason and trade, and a bulk edit leaves it out saying so', async () => {
    const t = setup(3);
    f.t.repos.listings.markEnded(['1000001'], 'sold_in_trade', { reason: 'sold in trade 61', tradeId: '61' });
    const row = t.page('listings', {}, null, 0, 5).rows.find((r) => r.key === '1000001');
    expect(row).toMatchObject({ state: 'sold_in_trade', stateReason: 'sold in trade 61', tradeId: '61', blocked: expect.stringMatching(/sold/) });
    const r = await t.bulk('listings', { filter: {} }, { op: 'addCents', cents: 1 });
    expect(r.changed).toBe(2);
    expect(r.skipped).toEqual([{ reason: expect.stringMatching(/sold or no longer on the service/), count: 1, sample: ['1000001'] }]);
  });

  it('stores what the preview showed, and computes again when the ledger or the draft moved in between', async () => {
    const t = setup(100);
    const op = { op: 'addCents', cents: 7 } as const;
    const { id } = f.drafts.create('d');
    const preview = await t.preview('listings', { filter: {} }, op);
    const stored = await t.bulk('listings', { filter: {} }, op);
    expect(stored).toMatchObject({ changed: preview.changed, samples: preview.samples });
    // A listing arrives between the preview and the click: the edit covers it too.
    await t.preview('listings', { filter: {} }, op);
    f.t.repos.listings.upsert(ledgerListing('5', { price: 300 }));
    const afterArrival = await t.bulk('listings', { filter: {} }, op);
    expect(afterArrival.changed).toBe(101);
    // An edit in the draft between the two: its price is the base.
    await t.preview('listings', { ids: ['5'] }, op);
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '5', price: 1000 }]);
    await t.bulk('listings', { ids: ['5'] }, op);
    expect(t.page('listings', { text: '5' }, null, 0, 200).rows.find((r) => r.key === '5')?.pending).toEqual({ price: 1007 });
  });

  it('previews a bulk edit from main without storing it: samples, range, rows left out', async () => {
    const t = setup(100);
    const preview = await t.preview('listings', { filter: {} }, { op: 'multiply', percent: 50, rounding: 'down' });
    expect(preview).toMatchObject({ changed: 100, matched: 100, refused: [], minAfter: 50, maxAfter: 99 });
    expect(preview.samples[0]).toEqual({ key: '1000000', before: 100, after: 50 });
    expect(f.drafts.current()).toBeNull();
    const tooLow = await t.preview('listings', { filter: {} }, { op: 'addCents', cents: -150 });
    expect(tooLow.refused).toEqual([{ reason: expect.stringMatching(/more than 0 cents/), count: 51, sample: expect.any(Array) }]);
  });
});

describe('ledger tables name the items', () => {
  it('shows the name backpack.tf shows, searches and sorts by it, and shows an unknown SKU as it is', async () => {
    f = draftFixture();
    f.t.repos.listings.upsertMany([
      ledgerListing('1', { sku: '5021;6' }),
      ledgerListing('2', { sku: '30911;5;u13' }),
      ledgerListing('3', { sku: '999999;6' }),
    ]);
    const t = createLedgerTables({ store: f.t.store, settings: f.t.repos.settings, drafts: f.drafts, now: () => 0, names: createItemNames() });
    const rows = t.page('listings', {}, { column: 'name', dir: 'asc' }, 0, 10).rows;
    expect(rows.map((r) => [r.key, r.item?.name, r.item?.known])).toEqual([
      ['3', '999999;6', false],
      ['2', 'Burning Flames Fat Man\'s Field Cap', true],
      ['1', 'Mann Co. Supply Crate Key', true],
    ]);
    expect(rows[1]?.item).toMatchObject({ quality: 'Unusual', effect: 'Burning Flames', color: expect.stringMatching(/^#/) });
    expect(t.page('listings', { text: 'supply crate' }, null, 0, 10).rows.map((r) => r.key)).toEqual(['1']);
  });
});

describe('ledger tables search and filter by item', () => {
  const SKUS = ['378;5;u13', '378;6', '205;11;kt-3', '205;6;kt-1', '5021;6;uncraftable', '15013;15;w3;pk0', '30911;5;u14'];

  function named(): LedgerTables {
    f = draftFixture();
    f.t.repos.listings.upsertMany(SKUS.map((sku, i) => ledgerListing(String(i + 1), { sku })));
    return createLedgerTables({ store: f.t.store, settings: f.t.repos.settings, drafts: f.drafts, now: () => 0, names: createItemNames() });
  }

  it('finds words in any order, the quality a name does not print and the short forms traders type, in the ledger and the draft\'s creates', () => {
    const t = named();
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: '77', price: 900, promoted: 0, sku: '378;5;u14' }]);
    const keys = (filter: LedgerFilter) => t.page('listings', filter, null, 0, 100).rows.map((r) => r.key);
    expect(keys({ text: 'Unusual' })).toEqual(['77', '1', '7']);
    expect(keys({ text: 'unusual burning' })).toEqual(['1']);
    expect(keys({ text: 'team captain burning flames' })).toEqual(['1']);
    expect(keys({ text: 'Pro KS' })).toEqual(['3']);
    expect(keys({ text: 'non-craft' })).toEqual(['5']);
    expect(t.page('listings', { text: 'unusual' }, null, 0, 1).total).toBe(3);
  });

  it('filters by quality, effect, killstreak tier, craftability and wear, and counts what the table holds for its filters', () => {
    const t = named();
    const keys = (filter: LedgerFilter) => t.page('listings', filter, null, 0, 100).rows.map((r) => r.key);
    expect(keys({ quality: 5 })).toEqual(['1', '7']);
    expect(keys({ quality: 5, effect: 14 })).toEqual(['7']);
    expect(keys({ quality: 11 })).toEqual(['3']);
    expect(keys({ killstreak: 'any' })).toEqual(['3', '4']);
    expect(keys({ craftable: false })).toEqual(['5']);
    expect(keys({ wear: 3 })).toEqual(['6']);
    expect(keys({ text: 'captain', quality: 6 })).toEqual(['2']);
    expect(t.page('listings', { craftable: false }, null, 0, 1)).toMatchObject({ total: 1, all: 7 });
    const facets = t.facets('listings');
    expect(facets.qualities).toEqual([
      { id: 6, name: 'Unique', count: 3 }, { id: 5, name: 'Unusual', count: 2 },
      { id: 11, name: 'Strange', count: 1 }, { id: 15, name: 'Decorated Weapon', count: 1 },
    ]);
    expect(facets.effects.map((e) => e.name)).toEqual(['Burning Flames', 'Scorching Flames']);
    expect(facets.killstreaks.map((k) => [k.name, k.count])).toEqual([['None', 5], ['Killstreak', 1], ['Professional Killstreak', 1]]);
    expect(facets.wears).toEqual([{ id: 3, name: 'Field-Tested', count: 1 }]);
    expect(t.facets('buyOrders')).toEqual({ qualities: [], effects: [], killstreaks: [], wears: [] });
  });
});

describe('ledger tables page by place and by count alike', () => {
  it('gives the same rows scrolling page after page (after the last row served) as jumping to each page, for every order', async () => {
    f = draftFixture();
    // Many equal prices, so ties decide; rows the draft creates among them; edits that move the price after the draft.
    f.t.repos.listings.upsertMany(Array.from({ length: 240 }, (_, i) => ledgerListing(String(500_000 + i), { price: 100 + (i % 7), promoted: (i % 2) as 0 | 1 })));
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [
      ...Array.from({ length: 25 }, (_, i): ChangeInput => ({ kind: 'listing.create', asset_id: String(9_000 + i * 13), price: 100 + (i % 7), promoted: 0 })),
      ...Array.from({ length: 40 }, (_, i): ChangeInput => ({ kind: 'listing.edit', asset_id: String(500_000 + i * 5), price: 200 - i })),
      { kind: 'listing.delete', asset_id: '500003' },
    ]);
    const sorts = [null, ...(['price', 'newPrice', 'asset', 'promoted'] as const).flatMap((column) => (['asc', 'desc'] as const).map((dir) => ({ column, dir })))];
    const offsets = Array.from({ length: 8 }, (_, i) => i * 37);
    for (const sort of sorts) {
      const name = JSON.stringify(sort);
      const scrolled = createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => 0 });
      const walk = offsets.flatMap((offset) => scrolled.page('listings', {}, sort, offset, 37).rows);
      // Last page first: no page starts after one served before it, so each is counted down to.
      const jumped = createLedgerTables({ store: f.t.store, drafts: f.drafts, now: () => 0 });
      const pages = new Map([...offsets].reverse().map((offset) => [offset, jumped.page('listings', {}, sort, offset, 37).rows.map((r) => r.key)]));
      expect(walk.map((r) => r.key), name).toEqual(offsets.flatMap((offset) => pages.get(offset) ?? []));
      expect(new Set(walk.map((r) => r.key)).size, name).toBe(265);
      if (sort?.column === 'price' || sort?.column === 'newPrice') {
        const values = walk.map((r) => (sort.column === 'price' ? r.price : (r.pending?.price ?? r.price)));
        expect(values, name).toEqual([...values].sort((a, b) => (sort.dir === 'asc' ? a - b : b - a)));
      }
    }
  });
});
