import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerExport } from '../../../src-main/core/csv/ledger-export.ts';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { csvFixture, preview, type CsvFixture } from './csv-support.ts';
import { LINKED, MAIN } from '../drafts/fixtures.ts';

/**
 * Export CSV of the ledger screens: the rows matching the screen's filter or
 * all of them, in the import's own format, so a file exported and imported
 * back changes nothing, at 50,000 rows too.
 */

const names = createItemNames();
let f: CsvFixture;
afterEach(() => f.dispose());

const SKUS = ['5021;6', '378;5;u13', '205;11;kt-2', '211;11;australium;kt-3;festive', '199;15;w3;pk120', '99999;6'];

function seed(count: number): void {
  const listings = [];
  for (let i = 0; i < count; i++) {
    listings.push({
      asset_id: String(10_000_000 + i), listing_id: `L${i}`, sku: SKUS[i % SKUS.length] ?? '5021;6', price: 100 + (i % 9_000),
      promoted: (i % 7 === 0 ? 1 : 0) as 0 | 1, game: '440', account: i % 5 === 0 ? LINKED : MAIN,
      user_note: i % 11 === 0 ? `=cmd|' /C calc'!A0, "quoted", line\nbreak ${i}` : '',
    });
  }
  f.t.repos.listings.upsertMany(listings);
  const orders = [];
  for (let i = 0; i < count; i++) {
    orders.push({ sku: `${20_000 + i};6`, account: i % 4 === 0 ? LINKED : MAIN, price: 50 + (i % 5_000), quantity: 1 + (i % 30), active: (i % 9 === 0 ? 0 : 1) as 0 | 1, user_note: i % 13 === 0 ? '+1 @SUM(A1)' : '' });
  }
  f.t.repos.buyOrders.upsertMany(orders);
}

const exporter = () => createLedgerExport({ store: f.t.store, drafts: f.drafts, settings: f.t.repos.settings, names, now: () => Date.now() });
const snapshot = () => ({
  listings: f.t.repos.listings.all().map(({ updated_at: _u, ...r }) => r),
  buyOrders: f.t.repos.buyOrders.all().map(({ updated_at: _u, ...r }) => r),
});

describe('ledger export', () => {
  it('round-trips a 50,000-row ledger of each kind through the import with no change', async () => {
    f = csvFixture({ names });
    seed(50_000);
    const before = snapshot();
    const out = exporter();
    for (const domain of ['listings', 'buyOrders'] as const) {
      const began = performance.now();
      const { csv, rows } = await out.exportLedger(domain, null);
      const exported = performance.now() - began;
      expect(rows).toBe(50_000);
      // Sent in parts of 64 kB, so quoted notes with line breaks in them fall across parts' ends.
      const p = await preview(f, domain, csv, undefined, 64 * 1024);
      expect(p.errors.slice(0, 3)).toEqual([]);
      expect(p.validCount).toBe(50_000);
      expect(await f.csv.commitImport(p.token)).toEqual({ imported: 50_000, errors: [], errorCount: 0, changedSince: 0 });
      console.log(`${domain}: 50,000 rows exported in ${Math.round(exported)} ms (${(csv.length / 1e6).toFixed(1)} MB), imported back`);
    }
    expect(snapshot()).toEqual(before);
  }, 120_000);

  it('writes the rows the screen filter shows, with their names, and the ledger values under a draft edit', async () => {
    f = csvFixture({ names });
    seed(60);
    const { id } = f.drafts.create('d');
    f.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: '10000000', price: 99_999 }]);
    const out = exporter();
    const keys = ['5021;6', '378;5;u13'].map((sku) => f.t.repos.listings.all().filter((l) => l.sku === sku).length);
    const keysOnly = await out.exportLedger('listings', { text: 'Mann Co. Supply Crate Key' });
    expect(keysOnly.rows).toBe(keys[0]);
    const lines = keysOnly.csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe('listing_id,asset_id,sku,name,price,promoted,game,user_note,account,state');
    expect(lines[1]).toContain('5021;6,Mann Co. Supply Crate Key,1.00');
    expect((await out.exportLedger('listings', { account: LINKED })).rows).toBe(12);
    expect((await out.exportLedger('buyOrders', { active: 0 })).rows).toBe(7);
    // A formula-looking note is neutralised for spreadsheets and read back as written.
    expect((await out.exportLedger('buyOrders', null)).csv).toContain(`'+1 @SUM(A1)`);
  });

  it('gives the event loop back at least every 250 rows, and writes the same file as at once', async () => {
    f = csvFixture({ names });
    seed(1_000);
    let turns = 0;
    const counted = createLedgerExport({
      store: f.t.store, drafts: f.drafts, settings: f.t.repos.settings, names, now: () => Date.now(), turn: async () => void (turns += 1),
    });
    for (const domain of ['listings', 'buyOrders'] as const) {
      turns = 0;
      const { csv, rows } = await counted.exportLedger(domain, null);
      expect(rows).toBe(1_000);
      expect(turns).toBeGreaterThanOrEqual(1_000 / 250);
      // Every row once, in the ledger's order, whatever the parts' size.
      const keys = csv.trim().split('\r\n').slice(1).map((line) => line.split(',')[domain === 'listings' ? 1 : 0]);
      const expected = domain === 'listings' ? f.t.repos.listings.all().map((l) => l.asset_id) : f.t.repos.buyOrders.all().map((b) => b.sku);
      expect(keys).toEqual(expected);
    }
  });
});
