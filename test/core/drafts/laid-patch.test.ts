import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src-main/core/clock.ts';
import type { BulkOp } from '../../../src-main/core/drafts/bulk-ops.ts';
import type { DraftEntry } from '../../../src-main/core/drafts/change.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createLedgerTables, type LedgerTables } from '../../../src-main/core/drafts/ledger-tables.ts';
import type { LedgerDomain, LedgerSelection } from '../../../src-shared/ledger.ts';
import { tempStore, MAIN, type TempStore } from '../store/temp-store.ts';
import { ledgerListing, seedListings } from './fixtures.ts';

/**
 * A bulk edit is laid over the draft in memory and its entries are built
 * later (EntryIndex.lay). Everything read before then must be what building
 * them at once gives: here, the draft read back after a restart, which
 * replays the stored patch at once, is the reference.
 */

// One instant for the whole test: a replayed patch stamps its entries with the time it is replayed.
const clock = { now: () => 1_767_000_000_000, sleep: systemClock.sleep };

let t: TempStore;
let drafts: DraftService;
let tables: LedgerTables;
const open = () => {
  // Folding is never run: the patch stays laid until something reads the draft in full.
  drafts = createDraftService({ store: t.store, repos: t.repos, defer: () => undefined });
  tables = createLedgerTables({ drafts, now: clock.now });
};
afterEach(() => {
  drafts.dispose();
  t.dispose();
});

/** A ledger of 300 listings and 60 buy orders, and a draft holding every kind and state of change. */
function world(): string {
  t = tempStore({ clock });
  seedListings(t, 300);
  t.repos.buyOrders.upsertMany(Array.from({ length: 60 }, (_, i) => ({ sku: `${7000 + i};6`, account: MAIN, price: 40 + i, quantity: 1 + (i % 4) })));
  open();
  const { id } = drafts.create('mixed');
  const added = drafts.addChanges(id, [
    { kind: 'listing.edit', asset_id: '1000001', price: 4321 },
    { kind: 'listing.edit', asset_id: '1000002', price: 17, user_note: 'kept' },
    { kind: 'listing.delete', asset_id: '1000003' },
    { kind: 'listing.edit', asset_id: '1000004', price: 1 },
    { kind: 'listing.delete', asset_id: '1000004' },
    { kind: 'listing.delete', asset_id: '1000005' },
    { kind: 'listing.create', asset_id: '1000005', price: 950, promoted: 0, sku: '5021;6' },
    { kind: 'listing.create', asset_id: '77', price: 900, promoted: 1, sku: '5021;6' },
    { kind: 'listing.create', asset_id: '78', price: 901, promoted: 0, sku: '5022;6' },
    { kind: 'listing.edit', asset_id: '1000010', price: 500 },
    { kind: 'listing.edit', asset_id: '1000011', price: 501 },
    { kind: 'listing.edit', asset_id: '1000012', price: 502 },
    { kind: 'listing.edit', asset_id: '1000013', price: 503 },
    { kind: 'buyOrder.edit', sku: '7001;6', price: 99, quantity: 3 },
    { kind: 'buyOrder.delete', sku: '7002;6' },
    { kind: 'buyOrder.create', sku: '9999;6', price: 12, quantity: 2 },
  ]);
  expect(added.errors).toEqual([]);
  // Settled and locked entries: a patch builds a new edit over a done one and leaves a locked one alone.
  t.repos.drafts.setStatus(id, ['L:1000010'], 'done');
  t.repos.drafts.setStatus(id, ['L:1000011'], 'unknown');
  t.repos.drafts.setStatus(id, ['L:1000012'], 'failed', { kind: 'rejected', status: 400, message: 'price too high' });
  t.repos.drafts.setStatus(id, ['L:78'], 'queued');
  drafts.refresh(id, ['L:1000010', 'L:1000011', 'L:1000012', 'L:78']);
  drafts.removeChanges(id, ['L:1000013']);
  return id;
}

/** What the screens read of a draft and the ledger under it, none of which may build the laid entries. */
function seen(domain: LedgerDomain) {
  const all = 1_000;
  const pages = [
    tables.page(domain, {}, null, 0, all),
    tables.page(domain, {}, { column: 'price', dir: 'asc' }, 0, all),
    tables.page(domain, {}, { column: 'price', dir: 'desc' }, 3, 40),
  ];
  return { pages, list: drafts.list() };
}

/** Entries by sequence, then target: a patch's entries share one sequence number, in no set order. */
const inOrder = (entries: DraftEntry[]) => [...entries].sort((a, b) => a.seq - b.seq || (a.target < b.target ? -1 : 1));

const stillLaid = (id: string) => {
  const ws = drafts.workingSet(id);
  return ws ? ws.entries.laid('L').length + ws.entries.laid('B').length : 0;
};

/**
 * Makes the edit and reads what the screens read, then compares with the
 * draft read back. The screens have read the draft before an edit (`asked`):
 * the counts after it are then those plus the patch's effect; without that
 * read they are counted afresh.
 */
function compareWithReplay(id: string, domain: LedgerDomain, edit: () => void, how: { asked: boolean; readThrough: boolean }): void {
  if (how.asked) seen(domain);
  edit();
  expect(stillLaid(id)).toBeGreaterThan(0);
  const lazy = seen(domain);
  // Counted from the counts before plus the patch's effect, the questions above read the patch through
  // and built none of its entries; counted afresh, they built them.
  if (how.readThrough) expect(stillLaid(id)).toBeGreaterThan(0);
  // Reading the draft in full builds them: exactly what the replay builds.
  const lazyEntries = inOrder(drafts.entries(id));
  expect(stillLaid(id)).toBe(0);

  drafts.dispose();
  t.reopen();
  open();
  expect(seen(domain)).toEqual(lazy);
  expect(inOrder(drafts.entries(id))).toEqual(lazyEntries);
}

/** As the screens ask: the table was read before the edit, so the counts after it come from the patch's effect. */
const READ_THROUGH = { asked: true, readThrough: true };

const bulk = (domain: LedgerDomain, selection: LedgerSelection, op: BulkOp) => () => {
  const r = tables.bulk(domain, selection, op);
  expect(r.changed).toBeGreaterThan(0);
};

describe('a bulk edit laid over a draft reads as if its entries were built at once', () => {
  it('over every listing, with a price of its own per row', () => {
    const id = world();
    compareWithReplay(id, 'listings', bulk('listings', { filter: {} }, { op: 'multiply', percent: 90, rounding: 'nearest' }), READ_THROUGH);
  });

  it('over the listings a filter matches, setting a note', () => {
    const id = world();
    compareWithReplay(id, 'listings', bulk('listings', { filter: { sku: '5001;6' } }, { op: 'setNote', note: 'laid' }), READ_THROUGH);
  });

  it('over chosen rows, among them rows the draft creates and a row being applied', () => {
    const id = world();
    const ids = ['77', '78', '1000001', '1000003', '1000004', '1000005', '1000010', '1000011', '1000012', '1000013', '1000200'];
    compareWithReplay(id, 'listings', bulk('listings', { ids }, { op: 'setPromoted', value: 1 }), READ_THROUGH);
  });

  it('over every buy order', () => {
    const id = world();
    compareWithReplay(id, 'buyOrders', bulk('buyOrders', { filter: {} }, { op: 'setActive', value: 0 }), READ_THROUGH);
  });

  it('followed by single edits of rows it touched, which land on top of it', () => {
    const id = world();
    compareWithReplay(id, 'listings', () => {
      bulk('listings', { filter: {} }, { op: 'addCents', cents: 7 })();
      drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '1000020', price: 3 }, { kind: 'listing.delete', asset_id: '1000021' }]);
      // A single edit writes the patch in first; a second bulk edit is laid over that.
      bulk('listings', { filter: { maxPrice: 200 } }, { op: 'setPrice', cents: 250 })();
      // Nothing read since the single edits: counted afresh.
    }, { asked: true, readThrough: false });
  });

  it('when nothing was read before it, so nothing is counted from', () => {
    const id = world();
    compareWithReplay(id, 'listings', bulk('listings', { filter: {} }, { op: 'addCents', cents: 11 }), { asked: false, readThrough: false });
  });

  it('on listings and buy orders at once', () => {
    const id = world();
    compareWithReplay(id, 'listings', () => {
      bulk('buyOrders', { filter: {} }, { op: 'setQuantity', quantity: 5 })();
      bulk('listings', { filter: {} }, { op: 'addCents', cents: -1 })();
    }, { asked: true, readThrough: false });
  });
});

describe('a patch laid over a ledger row with an unknown listing ID', () => {
  it('leaves the row out, as building it at once does', () => {
    const id = world();
    t.repos.listings.upsertMany([ledgerListing('1000299', { listing_id: null })]);
    compareWithReplay(id, 'listings', bulk('listings', { filter: {} }, { op: 'setPrice', cents: 1234 }), READ_THROUGH);
  });
});
