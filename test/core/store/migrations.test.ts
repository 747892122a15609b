import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { LATEST_VERSION, MIGRATIONS, migrate, userVersion } from '../../../src-main/core/store/migrations.ts';
import { migration as historyMigration } from '../../../src-main/core/store/migrations/012-trade-history-and-balance-readings.ts';
import { migration as inventories } from '../../../src-main/core/store/migrations/013-inventories-read-from-steam.ts';
import { migration as APPLIED } from '../../../src-main/core/store/migrations/014-what-each-apply-changed.ts';
import { migration as REFUSALS } from '../../../src-main/core/store/migrations/018-refusals-of-what-the-service-said.ts';
import { migration as ITEM_WORDS } from '../../../src-main/core/store/migrations/019-item-names-searched-by-words-and-parts.ts';
import { migration as COSTS } from '../../../src-main/core/store/migrations/020-what-each-item-cost.ts';
import { migration as PRICING } from '../../../src-main/core/store/migrations/021-price-sources-and-repricing.ts';
import { migration as STEADY } from '../../../src-main/core/store/migrations/022-a-source-price-s-steady-level.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh database file migrated up to `version`. */
function freshAt(version: number): DatabaseSync {
  const dir = mkdtempSync(join(tmpdir(), 'desk-migrate-'));
  dirs.push(dir);
  const db = new DatabaseSync(join(dir, 'p.sqlite'), { enableForeignKeyConstraints: true });
  expect(migrate(db, version)).toBe(version);
  return db;
}

const tables = (db: DatabaseSync) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

const insertAccount = (db: DatabaseSync, id = '1', kind = 'main') =>
  db.prepare('INSERT INTO accounts (account_id, kind, updated_at) VALUES (?, ?, 0)').run(id, kind);

describe('migrations', () => {
  it('are numbered 1, 2, 3, … with no gap, the last one the latest', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    expect(LATEST_VERSION).toBe(versions.at(-1));
  });

  it('live one to a file, named for its version, every file listed (beside the shape they share, migration.ts)', () => {
    const files = readdirSync(new URL('../../../src-main/core/store/migrations/', import.meta.url)).filter((f) => f.endsWith('.ts') && f !== 'migration.ts').sort();
    expect(files.map((f) => Number(f.slice(0, 3)))).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('1: accounts (digits only, one main) and settings on a fresh database', () => {
    const db = freshAt(1);
    expect(tables(db)).toEqual(['accounts', 'settings']);
    insertAccount(db, '1', 'main');
    expect(() => insertAccount(db, '2', 'main')).toThrow(/UNIQUE/);
    expect(() => insertAccount(db, '12a', 'linked')).toThrow(/CHECK/);
    insertAccount(db, '3', 'linked');
    db.close();
  });

  it('2: listings and buy orders, owned by a known account, money positive', () => {
    const db = freshAt(2);
    expect(tables(db)).toEqual(expect.arrayContaining(['listings', 'buy_orders']));
    const insertListing = db.prepare(`INSERT INTO listings (asset_id, listing_id, id_unknown, price, promoted, game, account, updated_at)
      VALUES (?, ?, ?, ?, 0, '440', ?, 0)`);
    expect(() => insertListing.run('10', 'L1', 0, 100, '1')).toThrow(/FOREIGN KEY/);
    insertAccount(db);
    insertListing.run('10', 'L1', 0, 100, '1');
    expect(() => insertListing.run('11', 'L2', 0, 0, '1')).toThrow(/CHECK/);
    // An unknown listing_id must be flagged, and a flagged one must have no id.
    expect(() => insertListing.run('12', null, 0, 5, '1')).toThrow(/CHECK/);
    insertListing.run('13', null, 1, 5, '1');
    db.prepare(`INSERT INTO buy_orders (sku, account, price, quantity, updated_at) VALUES ('a;b', '1', 10, 2, 0)`).run();
    expect(() => db.prepare(`INSERT INTO buy_orders (sku, account, price, quantity, updated_at) VALUES ('a;c', '1', 10, 0, 0)`).run()).toThrow(/CHECK/);
    db.close();
  });

  it('3: pending trades and the seen set', () => {
    const db = freshAt(3);
    expect(tables(db)).toEqual(expect.arrayContaining(['pending_trades', 'seen_trades']));
    db.prepare("INSERT INTO seen_trades (key, status) VALUES ('market:1', 'Action Required')").run();
    expect(() => db.prepare("INSERT INTO pending_trades VALUES ('swap', '1', 's', '{}', 0, 0)").run()).toThrow(/CHECK/);
    db.close();
  });

  it('4: drafts with their changes and patches, removed together', () => {
    const db = freshAt(4);
    expect(tables(db)).toEqual(expect.arrayContaining(['drafts', 'draft_changes', 'draft_patches']));
    db.prepare("INSERT INTO drafts VALUES ('d1', 'Spring prices', 0, 0)").run();
    db.prepare("INSERT INTO draft_changes (draft_id, target, seq, body, updated_at) VALUES ('d1', 'L:1', 1, '{}', 0)").run();
    db.prepare("INSERT INTO draft_patches (draft_id, seq, body, created_at) VALUES ('d1', 2, '{}', 0)").run();
    expect(() => db.prepare("INSERT INTO draft_changes (draft_id, target, seq, body, status, updated_at) VALUES ('d1', 'L:2', 1, '{}', 'lost', 0)").run()).toThrow(/CHECK/);
    db.prepare("DELETE FROM drafts WHERE draft_id = 'd1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM draft_changes').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM draft_patches').get()).toEqual({ n: 0 });
    db.close();
  });

  it('5: apply journal and activity log', () => {
    const db = freshAt(5);
    expect(tables(db)).toEqual(expect.arrayContaining(['apply_runs', 'apply_batches', 'activity_log']));
    db.prepare("INSERT INTO drafts VALUES ('d1', 'x', 0, 0)").run();
    db.prepare("INSERT INTO apply_runs (draft_id, state, started_at) VALUES ('d1', 'running', 0)").run();
    db.prepare(`INSERT INTO apply_batches (batch_id, run_id, endpoint, phase, input, targets, item_count, state, created_at)
      VALUES ('b1', 1, 'create_listing', 1, '{}', '[]', 1, 'planned', 0)`).run();
    expect(() => db.prepare(`INSERT INTO apply_batches (batch_id, run_id, endpoint, phase, input, targets, item_count, state, created_at)
      VALUES ('b2', 99, 'create_listing', 1, '{}', '[]', 1, 'planned', 0)`).run()).toThrow(/FOREIGN KEY/);
    db.prepare("INSERT INTO activity_log (at, endpoint, item_count, targets, status) VALUES (0, 'edit_listing', 1, '[]', 'sent')").run();
    db.close();
  });

  it('6: evidence about an unknown outcome, removed with its batch', () => {
    const db = freshAt(6);
    db.prepare("INSERT INTO drafts VALUES ('d1', 'x', 0, 0)").run();
    db.prepare("INSERT INTO apply_runs (draft_id, state, started_at) VALUES ('d1', 'running', 0)").run();
    db.prepare(`INSERT INTO apply_batches (batch_id, run_id, endpoint, phase, input, targets, item_count, state, created_at)
      VALUES ('b1', 1, 'create_listing', 1, '{}', '["L:1"]', 1, 'unknown', 0)`).run();
    db.prepare("INSERT INTO outcome_evidence (batch_id, target, at, message) VALUES ('b1', 'L:1', 5, 'asset 1 is already listed')").run();
    expect(() => db.prepare("INSERT INTO outcome_evidence (batch_id, target, at, message) VALUES ('b9', 'L:1', 5, 'x')").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM apply_batches WHERE batch_id = 'b1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM outcome_evidence').get()).toEqual({ n: 0 });
    db.close();
  });

  it('7: listing states the service ends (sold, in a trade, gone), with reason and trade, keeping every row', () => {
    const db = freshAt(6);
    insertAccount(db);
    db.prepare(`INSERT INTO listings (asset_id, listing_id, id_unknown, price, promoted, game, account, state, updated_at)
      VALUES ('10', 'L1', 0, 100, 0, '440', '1', 'active', 5), ('11', NULL, 1, 200, 1, '440', '1', 'sold', 6)`).run();
    expect(migrate(db, 7)).toBe(7);
    expect(db.prepare('SELECT asset_id, listing_id, state, state_reason, trade_id, updated_at FROM listings ORDER BY rowid').all()).toEqual([
      { asset_id: '10', listing_id: 'L1', state: 'active', state_reason: null, trade_id: null, updated_at: 5 },
      { asset_id: '11', listing_id: null, state: 'sold', state_reason: null, trade_id: null, updated_at: 6 },
    ]);
    db.prepare("UPDATE listings SET state = 'sold_in_trade', trade_id = '9', state_reason = 'sold in trade 9' WHERE asset_id = '10'").run();
    db.prepare("UPDATE listings SET state = 'not_on_service' WHERE asset_id = '11'").run();
    expect(() => db.prepare("UPDATE listings SET state = 'lost' WHERE asset_id = '10'").run()).toThrow(/CHECK/);
    expect(() => db.prepare(`INSERT INTO listings (asset_id, listing_id, price, promoted, game, account, updated_at) VALUES ('12', 'L2', 1, 0, '440', '2', 0)`).run()).toThrow(/FOREIGN KEY/);
    db.prepare("INSERT INTO activity_log (at, endpoint, item_count, targets, status, note) VALUES (0, 'load_pending', 1, '[]', 'done', 'sold')").run();
    db.close();
  });

  it('8: bounds on a created buy order\'s quantity, within 0..quantity, keeping every order', () => {
    const db = freshAt(7);
    insertAccount(db);
    db.prepare(`INSERT INTO buy_orders (sku, account, price, quantity, quantity_may_be_cut, updated_at) VALUES ('a;b', '1', 10, 5, 1, 0)`).run();
    expect(migrate(db, 8)).toBe(8);
    expect(db.prepare('SELECT sku, quantity, quantity_may_be_cut, quantity_at_least FROM buy_orders').all()).toEqual([
      { sku: 'a;b', quantity: 5, quantity_may_be_cut: 1, quantity_at_least: null },
    ]);
    db.prepare("UPDATE buy_orders SET quantity_at_least = 2 WHERE sku = 'a;b'").run();
    expect(() => db.prepare("UPDATE buy_orders SET quantity_at_least = 6 WHERE sku = 'a;b'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE buy_orders SET quantity_at_least = -1 WHERE sku = 'a;b'").run()).toThrow(/CHECK/);
    db.close();
  });

  it('9: the trades announced as needing action, one row a trade and status', () => {
    const db = freshAt(9);
    db.prepare("INSERT INTO announced_trades (key, seq) VALUES ('buy_order:7:Action required', 0)").run();
    expect(() => db.prepare("INSERT INTO announced_trades (key, seq) VALUES ('buy_order:7:Action required', 1)").run()).toThrow(/UNIQUE|PRIMARY/);
    expect(() => db.prepare("INSERT INTO announced_trades (key, seq) VALUES ('market:8:Action Required', 'x')").run()).toThrow(/integer|INTEGER|datatype/i);
    db.close();
  });

  it('10: a draft\'s changes become columns, and bulk patches an earlier version left unfolded are folded in first', () => {
    const db = freshAt(9);
    insertAccount(db, '7', 'main');
    const listing = db.prepare(`INSERT INTO listings (asset_id, listing_id, id_unknown, sku, price, promoted, game, account, updated_at)
      VALUES (?, ?, ?, '5021;6', ?, 0, '440', '7', 0)`);
    listing.run('1', 'L1', 0, 100);
    listing.run('2', 'L2', 0, 200);
    listing.run('3', null, 1, 300);
    db.prepare(`INSERT INTO buy_orders (sku, account, price, quantity, updated_at) VALUES ('5021;6', '7', 50, 4, 0)`).run();
    db.prepare("INSERT INTO drafts (draft_id, name, created_at, updated_at) VALUES ('d', 'd', 0, 0)").run();
    const change = db.prepare('INSERT INTO draft_changes (draft_id, target, seq, body, status, error, batch_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1)');
    change.run('d', 'L:1', 1, JSON.stringify({ kind: 'listing.edit', account: '7', asset_id: '1', listing_id: 'L1', price: 111, promoted: 1, user_note: 'n' }), 'failed', '{"kind":"server","message":"x"}', null);
    change.run('d', 'L:9', 2, JSON.stringify({ kind: 'listing.create', account: '7', asset_id: '9', price: 900, promoted: 0, game: '440', sku: '5021;6' }), 'pending', null, null);
    change.run('d', 'LD:2', 3, JSON.stringify({ kind: 'listing.delete', account: '7', asset_id: '2' }), 'queued', null, 'b1');
    change.run('d', 'LA', 4, JSON.stringify({ kind: 'listing.deleteAll', active_only: true, replaced: 2 }), 'pending', null, null);
    change.run('d', 'L:2', 9, JSON.stringify({ kind: 'listing.edit', account: '7', asset_id: '2', listing_id: 'L2', price: 222, promoted: 0 }), 'pending', null, null);
    // Stored before the edit of 2 (seq 9): it reprices 1 (a failed edit, taken over), 2 (newer, left alone), 3 (no listing ID) and 9 (a create).
    const patch = db.prepare('INSERT INTO draft_patches (draft_id, seq, body, created_at) VALUES (?, ?, ?, 7)');
    patch.run('d', 5, JSON.stringify({ domain: 'listings', ids: ['1', '2', '3', '9'], set: {}, prices: [150, 250, 350, 950] }));
    patch.run('d', 6, JSON.stringify({ domain: 'buyOrders', ids: ['5021;6'], set: { active: 0 } }));
    expect(migrate(db, 10)).toBe(10);
    expect(tables(db)).not.toContain('draft_patches');
    expect(db.prepare(`SELECT slot, key, seq, kind, price, promoted, user_note, active, quantity, status, error, batch_id, active_only, replaced
      FROM draft_entries ORDER BY seq, slot, key`).all()).toEqual([
      { slot: 'LD', key: '2', seq: 3, kind: 'listing.delete', price: null, promoted: null, user_note: null, active: null, quantity: null, status: 'queued', error: null, batch_id: 'b1', active_only: null, replaced: null },
      { slot: 'LA', key: '', seq: 4, kind: 'listing.deleteAll', price: null, promoted: null, user_note: null, active: null, quantity: null, status: 'pending', error: null, batch_id: null, active_only: 1, replaced: 2 },
      { slot: 'L', key: '1', seq: 5, kind: 'listing.edit', price: 150, promoted: 1, user_note: 'n', active: null, quantity: null, status: 'pending', error: null, batch_id: null, active_only: null, replaced: null },
      { slot: 'L', key: '9', seq: 5, kind: 'listing.create', price: 950, promoted: 0, user_note: null, active: null, quantity: null, status: 'pending', error: null, batch_id: null, active_only: null, replaced: null },
      { slot: 'B', key: '5021;6', seq: 6, kind: 'buyOrder.edit', price: 50, promoted: null, user_note: null, active: 0, quantity: 4, status: 'pending', error: null, batch_id: null, active_only: null, replaced: null },
      { slot: 'L', key: '2', seq: 9, kind: 'listing.edit', price: 222, promoted: 0, user_note: null, active: null, quantity: null, status: 'pending', error: null, batch_id: null, active_only: null, replaced: null },
    ]);
    expect(db.prepare("SELECT next_seq FROM drafts WHERE draft_id = 'd'").get()).toEqual({ next_seq: 10 });
    // A change's shape is held by the table: an edit without a price, a delete-all with a key.
    expect(() => db.prepare("INSERT INTO draft_entries (draft_id, slot, key, seq, kind, updated_at) VALUES ('d', 'L', '5', 1, 'listing.edit', 0)").run()).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO draft_entries (draft_id, slot, key, seq, kind, updated_at) VALUES ('d', 'LA', 'x', 1, 'listing.deleteAll', 0)").run()).toThrow(/CHECK/);
    db.close();
  });

  it('11: item names by SKU, one row a SKU', () => {
    const db = freshAt(11);
    db.prepare("INSERT INTO item_names (sku, search) VALUES ('5021;6', 'mann co. supply crate key')").run();
    expect(() => db.prepare("INSERT INTO item_names (sku, search) VALUES ('5021;6', 'x')").run()).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it(`${historyMigration.version}: the trade history, its items, the balance readings`, () => {
    const db = freshAt(historyMigration.version);
    expect(tables(db)).toEqual(expect.arrayContaining(['trade_history', 'trade_history_items', 'balance_readings', 'history_meta']));
    const insert = db.prepare(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at, ending)
      VALUES (?, '1', 'sale', '1', '2', 'Action Required', 100, 0, 0, 0, 0, ?)`);
    insert.run('market', 'pending');
    expect(() => insert.run('market', 'pending')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run('barter', 'pending')).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE trade_history SET ending = 'sold'").run()).toThrow(/CHECK/);
    const item = db.prepare("INSERT INTO trade_history_items (trade_type, trade_id, position, sku, name, quantity, price) VALUES ('market', ?, 0, '5021;6', 'Mann Co. Supply Crate Key', 1, 100)");
    item.run('1');
    expect(() => item.run('2')).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM trade_history').run();
    expect(db.prepare('SELECT count(*) AS n FROM trade_history_items').get()).toEqual({ n: 0 });
    db.prepare('INSERT INTO balance_readings (at, balance, pending_balance) VALUES (1, 5, 0)').run();
    expect(() => db.prepare('INSERT INTO balance_readings (at, balance, pending_balance) VALUES (1, 6, 0)').run()).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it(`${inventories.version}: inventories read from Steam, per account and read, gone with their account`, () => {
    const db = freshAt(inventories.version);
    insertAccount(db, '1', 'main');
    db.prepare("INSERT INTO inventory_reads (account, generation, read_at, total) VALUES ('1', 1, 5, 2)").run();
    const item = db.prepare(`INSERT INTO inventory_items (account, generation, asset_id, position, sku, name, search, quality, strange, effect,
      killstreak, wear, australium, festivized, craftable, tradable) VALUES (?, 1, ?, 0, '378;5;u13', 'Burning Flames Team Captain', '', 5, 0, 13, ?, NULL, 0, 0, 1, 1)`);
    item.run('1', '11', 0);
    expect(() => item.run('1', '11', 0)).toThrow(/UNIQUE/);
    expect(() => item.run('1', '12a', 0)).toThrow(/CHECK/);
    expect(() => item.run('1', '13', 4)).toThrow(/CHECK/);
    expect(() => item.run('2', '14', 0)).toThrow(/FOREIGN KEY/);
    // A problem has its sentence, and a sentence its kind.
    expect(() => db.prepare("UPDATE inventory_reads SET problem_kind = 'forbidden' WHERE account = '1'").run()).toThrow(/CHECK/);
    db.prepare("DELETE FROM accounts WHERE account_id = '1'").run();
    expect(db.prepare('SELECT (SELECT count(*) FROM inventory_reads) + (SELECT count(*) FROM inventory_items) AS n').get()).toEqual({ n: 0 });
    db.close();
  });

  it(`${APPLIED.version}: what each apply changed, one row per run and ledger row, removed with its run`, () => {
    const db = freshAt(APPLIED.version);
    insertAccount(db);
    db.prepare("INSERT INTO drafts (draft_id, name, created_at, updated_at) VALUES ('d', 'd', 0, 0)").run();
    db.prepare("INSERT INTO apply_runs (run_id, draft_id, state, started_at) VALUES (1, 'd', 'finished', 0)").run();
    const insert = db.prepare(`INSERT INTO applied_rows (run_id, slot, key, account, before_price, after_price, kind, at)
      VALUES (1, ?, ?, '1', ?, ?, 'listing.edit', 0)`);
    insert.run('L', '10', 300, 250);
    // A created row has nothing before it, a deleted one nothing after.
    insert.run('L', '11', null, 250);
    insert.run('B', '5021;6', 40, null);
    expect(() => insert.run('L', '10', 300, 250)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run('X', '12', 300, 250)).toThrow(/CHECK/);
    expect(() => insert.run('L', '13', 0, 250)).toThrow(/CHECK/);
    db.prepare("DELETE FROM drafts WHERE draft_id = 'd'").run();
    expect(db.prepare('SELECT count(*) AS n FROM applied_rows').get()).toEqual({ n: 0 });
    db.close();
  });

  it(`${REFUSALS.version}: refusals of what the service said, one a trade and field; rows kept before with numbers out of bounds become refusals`, () => {
    const db = freshAt(REFUSALS.version - 1);
    const T = Date.UTC(2025, 0, 6);
    const trade = db.prepare(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at, ending)
      VALUES ('market', ?, 'sale', '1', '2', 'Action Required', ?, ?, ${T}, ${T}, ${T}, 'balance_moved')`);
    const item = db.prepare("INSERT INTO trade_history_items (trade_type, trade_id, position, sku, name, quantity, price) VALUES ('market', ?, 0, '5021;6', 'Key', ?, ?)");
    trade.run('ok', 700, T - 60_000);
    item.run('ok', 1, 700);
    trade.run('huge', Number.MAX_SAFE_INTEGER, T - 60_000);
    trade.run('negative', -700, T - 60_000);
    // A timestamp near 2^53 seconds, kept as ms: far beyond what a JavaScript number reads back.
    db.exec(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at, ending)
      VALUES ('market', 'far', 'sale', '1', '2', 'Action Required', 900, 9007199254740991 * 1000, ${T}, ${T}, ${T}, 'left')`);
    trade.run('pricey', 700, T - 60_000);
    item.run('pricey', 1, -5);
    db.prepare('INSERT INTO balance_readings (at, balance, pending_balance) VALUES (?, ?, 0)').run(T, 5_000);
    db.prepare('INSERT INTO balance_readings (at, balance, pending_balance) VALUES (?, ?, 0)').run(T + 1, Number.MAX_SAFE_INTEGER);
    expect(migrate(db, REFUSALS.version)).toBe(REFUSALS.version);

    expect(db.prepare('SELECT trade_id FROM trade_history ORDER BY trade_id').all()).toEqual([{ trade_id: 'ok' }]);
    expect(db.prepare("SELECT count(*) AS n FROM trade_history_items WHERE trade_id != 'ok'").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT kind, ref, field, value FROM history_refusals ORDER BY kind, ref').all()).toEqual([
      { kind: 'balance', ref: '', field: 'balance', value: String(Number.MAX_SAFE_INTEGER) },
      { kind: 'market', ref: 'far', field: 'timestamp', value: '9007199254740991' },
      { kind: 'market', ref: 'huge', field: 'total', value: String(Number.MAX_SAFE_INTEGER) },
      { kind: 'market', ref: 'negative', field: 'total', value: '-700' },
      { kind: 'market', ref: 'pricey', field: 'items.0', value: '1 × -5' },
    ]);
    expect(db.prepare('SELECT at FROM balance_readings').all()).toEqual([{ at: T }]);
    const refuse = db.prepare("INSERT INTO history_refusals (kind, ref, field, value, reason, first_at, last_at) VALUES (?, '9', 'total', '1', 'x', 0, 0)");
    refuse.run('market');
    expect(() => refuse.run('market')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => refuse.run('barter')).toThrow(/CHECK/);
    db.close();
  });

  it(`${ITEM_WORDS.version}: item names with their parts, and their words in an FTS5 index found by the starts of words; names kept before are named afresh`, () => {
    const db = freshAt(ITEM_WORDS.version - 1);
    db.prepare("INSERT INTO item_names (sku, search) VALUES ('378;5;u13', 'burning flames team captain')").run();
    expect(migrate(db, ITEM_WORDS.version)).toBe(ITEM_WORDS.version);
    expect(db.prepare('SELECT count(*) AS n FROM item_names').get()).toEqual({ n: 0 });
    const name = db.prepare(`INSERT INTO item_names (sku, search, quality, strange, effect, killstreak, australium, festivized, craftable, wear)
      VALUES (?, 'x', 5, 0, 13, ?, 0, 0, 1, NULL)`);
    name.run('378;5;u13', 0);
    expect(() => name.run('378;5;u13', 0)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => name.run('205;6;kt-4', 4)).toThrow(/CHECK/);
    db.prepare("INSERT INTO item_words (sku, words) VALUES ('378;5;u13', 'burning flames team captain unusual craftable')").run();
    db.prepare("INSERT INTO item_words (sku, words) VALUES ('378;6', 'team captain unique craftable')").run();
    const match = (q: string) => (db.prepare('SELECT sku FROM item_words WHERE item_words MATCH ? ORDER BY sku').all(q) as { sku: string }[]).map((r) => r.sku);
    expect(match('"captain"* AND "burn"*')).toEqual(['378;5;u13']);
    expect(match('"team"* AND "captain"*')).toEqual(['378;5;u13', '378;6']);
    expect(match('"u"*')).toEqual(['378;5;u13', '378;6']);
    db.close();
  });

  it(`${COSTS.version}: cost lots (a purchase line once, units never used past the lot) and the parts each sale took; trades marked costed`, () => {
    const db = freshAt(COSTS.version);
    expect(tables(db)).toEqual(expect.arrayContaining(['cost_lots', 'cost_uses']));
    const lot = db.prepare(`INSERT INTO cost_lots (sku, origin, trade_type, trade_id, position, acquired_at, quantity, used, unit_cost, set_at)
      VALUES (?, ?, ?, ?, ?, 0, ?, ?, 100, 0)`);
    lot.run('5021;6', 'purchase', 'buy_order', '1', 0, 2, 0);
    expect(() => lot.run('5021;6', 'purchase', 'buy_order', '1', 0, 2, 0)).toThrow(/UNIQUE/);
    expect(() => lot.run('5021;6', 'purchase', 'buy_order', '2', 0, 2, 3)).toThrow(/CHECK/);
    expect(() => lot.run('5021;6', 'manual', 'buy_order', '3', 0, 1, 0)).toThrow(/CHECK/);
    lot.run('5021;6', 'manual', null, null, null, 1, 0);
    db.prepare(`INSERT INTO trade_history (trade_type, trade_id, side, account, partner, status, total, created_at, first_seen_at, last_seen_at, at, ending)
      VALUES ('market', '9', 'sale', '1', '2', 's', 100, 0, 0, 0, 5, 'balance_moved')`).run();
    expect(db.prepare('SELECT costed FROM trade_history').get()).toEqual({ costed: 0 });
    // The readers walk the partial index (INDEXED BY fails when it cannot serve the query).
    expect(db.prepare("SELECT trade_id FROM trade_history INDEXED BY trade_history_uncosted WHERE costed = 0 AND ending IN ('balance_moved', 'listing_sold') ORDER BY at").all())
      .toEqual([{ trade_id: '9' }]);
    db.close();
  });

  it(`${PRICING.version}: price sources with their prices (gone with the source), rules, and the runs of a reprice with their rows`, () => {
    const db = freshAt(PRICING.version);
    expect(tables(db)).toEqual(expect.arrayContaining(['price_sources', 'source_prices', 'reprice_rules', 'reprice_runs', 'reprice_rows']));
    db.prepare("INSERT INTO price_sources (source_id, kind, config, created_at) VALUES ('pricedb', 'pricedb', '{}', 0)").run();
    expect(() => db.prepare("INSERT INTO price_sources (source_id, kind, config, created_at) VALUES ('x', 'scraper', '{}', 0)").run()).toThrow(/CHECK/);
    db.prepare("INSERT INTO source_prices (source_id, sku, buy, sell, original, priced_at, read_at) VALUES ('pricedb', '5021;6', 100, 110, '{}', 0, 0)").run();
    expect(() => db.prepare("INSERT INTO source_prices (source_id, sku, buy, sell, original, priced_at, read_at) VALUES ('nope', '1;6', 1, 1, '{}', 0, 0)").run()).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM price_sources WHERE source_id = 'pricedb'").run();
    expect(db.prepare('SELECT count(*) AS n FROM source_prices').get()).toEqual({ n: 0 });
    db.prepare("INSERT INTO reprice_runs (run_id, kind, state, started_at) VALUES (1, 'now', 'building', 0)").run();
    const row = db.prepare("INSERT INTO reprice_rows (run_id, domain, key, sku, outcome, reason) VALUES (1, 'listings', ?, '1;6', ?, 'why')");
    row.run('10', 'change');
    expect(() => row.run('11', 'maybe')).toThrow(/CHECK/);
    db.prepare('DELETE FROM reprice_runs').run();
    expect(db.prepare('SELECT count(*) AS n FROM reprice_rows').get()).toEqual({ n: 0 });
    db.close();
  });

  it(`${STEADY.version}: a source price keeps its steady level: the earlier price when its last change was a jump, else the price it has`, () => {
    const db = freshAt(STEADY.version - 1);
    db.prepare("INSERT INTO price_sources (source_id, kind, config, created_at) VALUES ('pricedb', 'pricedb', '{}', 0)").run();
    const put = db.prepare("INSERT INTO source_prices (source_id, sku, buy, sell, original, priced_at, read_at, prev_buy, prev_sell) VALUES ('pricedb', ?, ?, ?, '{}', 0, 0, ?, ?)");
    put.run('1;6', 90, 1_000, null, 100); // sell jumped ×10 at its last change; buy never changed
    put.run('2;6', 90, 104, 88, 100); // both drifted
    put.run('3;6', 9, 10, 90, 100); // both fell ×0.1
    put.run('4;6', null, 100, 90, 100); // buy no longer priced
    expect(migrate(db, STEADY.version)).toBe(STEADY.version);
    expect(db.prepare('SELECT sku, steady_buy, steady_sell FROM source_prices ORDER BY sku').all().map((r) => ({ ...r }))).toEqual([
      { sku: '1;6', steady_buy: 90, steady_sell: 100 },
      { sku: '2;6', steady_buy: 90, steady_sell: 104 },
      { sku: '3;6', steady_buy: 90, steady_sell: 100 },
      { sku: '4;6', steady_buy: null, steady_sell: 100 },
    ]);
    db.close();
  });

  it('bring a database from any version to the latest, keeping its rows', () => {
    const db = freshAt(2);
    insertAccount(db);
    expect(migrate(db)).toBe(LATEST_VERSION);
    expect(userVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM accounts').get()).toEqual({ n: 1 });
    // Running again is a no-op.
    expect(migrate(db)).toBe(LATEST_VERSION);
    db.close();
  });
});
