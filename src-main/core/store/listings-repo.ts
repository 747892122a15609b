import { z } from 'zod';
import { accountId, assetId, cents, flag01, gameId, listingId, storedUserNote } from '../../../src-shared/fields.ts';
import type { Store } from './db.ts';
import { deleteWhereIn, ledgerWrites, parseRow, parseRows, rowidPages, sqlBool, toSqlBool, type CheckedRows } from './sql.ts';
import { countOf } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The ledger of listings. There is no "list my listings" endpoint, so this
 * table is the only record of what the account has on the market and of the
 * listing_id every edit needs.
 */
export const listingState = z.enum(['active', 'inactive', 'sold', 'cancelled', 'sold_in_trade', 'not_on_service']);
export type ListingState = z.infer<typeof listingState>;

/**
 * States of a listing the service no longer holds as standing, learnt from
 * the trades (a sale: in a trade still pending, then sold) or from a refusal
 * (not on the service: removed on the website, unknown to it). Plans leave
 * such rows out; the trader may clear them or list the asset again.
 */
export const ENDED_STATES = ['sold_in_trade', 'sold', 'not_on_service'] as const satisfies readonly ListingState[];
export type EndedState = (typeof ENDED_STATES)[number];
export const isEnded = (state: ListingState): state is EndedState => (ENDED_STATES as readonly string[]).includes(state);

export const listingRow = lazySchema(() => z.object({
  asset_id: assetId,
  /** Null only when a create's response was lost and the trader marked it done. */
  listing_id: listingId.nullable(),
  id_unknown: sqlBool,
  sku: z.string(),
  price: cents,
  promoted: flag01,
  game: gameId,
  user_note: storedUserNote,
  account: accountId,
  state: listingState,
  /** Why the state is what it is, for an ended one ("sold in trade 61…", the service's refusal). */
  state_reason: z.string().nullable(),
  /** The trade that sold it. */
  trade_id: z.string().nullable(),
  updated_at: z.number().int(),
}));
export type ListingRow = z.output<typeof listingRow>;

/** What callers write; `updated_at` is stamped by the repo. */
export const listingInput = z.strictObject({
  asset_id: assetId,
  listing_id: listingId.nullable(),
  sku: z.string().default(''),
  price: cents,
  promoted: flag01,
  game: gameId,
  user_note: storedUserNote.default(''),
  account: accountId,
  state: listingState.default('active'),
});
export type ListingInput = z.input<typeof listingInput>;

export interface ListingsRepo {
  all(): ListingRow[];
  /** All rows in the same order, a page at each call (see `rowidPages`). */
  checkedPages(pageSize: number): () => CheckedRows<ListingRow>;
  get(assetId: string): ListingRow | null;
  /** The rows of these keys that exist, in one query. */
  getMany(assetIds: readonly string[]): ListingRow[];
  /** The SKU of each of these assets the ledger holds (one query, no row checked whole: for naming items). */
  skusOf(assetIds: readonly string[]): Map<string, string>;
  byListingId(listingId: string): ListingRow | null;
  count(filter?: { activeOnly?: boolean }): number;
  upsert(input: ListingInput): void;
  upsertMany(inputs: readonly ListingInput[]): void;
  /** Changes price/promoted/user_note after a confirmed edit. */
  update(assetId: string, fields: { price?: number; promoted?: 0 | 1; user_note?: string; listing_id?: string }): void;
  remove(assetIds: readonly string[]): number;
  /** After a confirmed delete-all: `activeOnly` keeps sold, cancelled and inactive ones. */
  removeAll(activeOnly: boolean): number;
  /** Marks these rows as ended, with why (and the trade that sold them). */
  markEnded(assetIds: readonly string[], state: EndedState, details: { reason: string; tradeId?: string }): void;
  /** Rows in these states, oldest first. */
  inStates(states: readonly ListingState[]): ListingRow[];
  /** Rows whose listing ID is unknown (a create whose response was lost, marked done), oldest first. */
  idUnknown(): ListingRow[];
  /** Rows a trade sold. */
  byTrade(tradeId: string): ListingRow[];
  /**
   * Up to `count` rows of `account` for this SKU at this price that a sale may
   * have taken: first those a refused edit already showed ended with no trade
   * named (said sold, or unknown to the service), then active ones, oldest first.
   */
  saleCandidates(account: string, sku: string, price: number, count: number): ListingRow[];
}

export function createListingsRepo(store: Store): ListingsRepo {
  const { db } = store;
  const selectAll = db.prepare('SELECT * FROM listings ORDER BY rowid');
  const selectOne = db.prepare('SELECT * FROM listings WHERE asset_id = ?');
  const selectMany = db.prepare('SELECT * FROM listings WHERE asset_id IN (SELECT value FROM json_each(?))');
  const selectById = db.prepare('SELECT * FROM listings WHERE listing_id = ?');
  const selectSkus = db.prepare('SELECT asset_id, sku FROM listings WHERE asset_id IN (SELECT value FROM json_each(?))');
  const countAll = db.prepare('SELECT count(*) AS n FROM listings');
  const countActive = db.prepare("SELECT count(*) AS n FROM listings WHERE state = 'active'");
  const upsertStmt = db.prepare(`
    INSERT INTO listings (asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at)
    VALUES (:asset_id, :listing_id, :id_unknown, :sku, :price, :promoted, :game, :user_note, :account, :state, :at)
    ON CONFLICT (asset_id) DO UPDATE SET
      listing_id = excluded.listing_id, id_unknown = excluded.id_unknown, sku = excluded.sku,
      price = excluded.price, promoted = excluded.promoted, game = excluded.game, user_note = excluded.user_note,
      account = excluded.account, state = excluded.state, state_reason = NULL, trade_id = NULL, updated_at = excluded.updated_at`);
  const updateStmt = db.prepare(`
    UPDATE listings SET price = coalesce(:price, price), promoted = coalesce(:promoted, promoted),
      user_note = coalesce(:user_note, user_note), listing_id = coalesce(:listing_id, listing_id),
      id_unknown = CASE WHEN :listing_id IS NULL THEN id_unknown ELSE 0 END, updated_at = :at
    WHERE asset_id = :asset_id`);
  const markEndedStmt = db.prepare('UPDATE listings SET state = ?, state_reason = ?, trade_id = ?, updated_at = ? WHERE asset_id = ?');
  const byTradeStmt = db.prepare('SELECT * FROM listings WHERE trade_id = ? ORDER BY rowid');
  const idUnknownStmt = db.prepare('SELECT * FROM listings WHERE id_unknown = 1 ORDER BY rowid');
  const candidatesStmt = db.prepare(
    `SELECT * FROM listings WHERE account = ? AND sku = ? AND price = ?
      AND (state = 'active' OR (state IN ('sold', 'not_on_service') AND trade_id IS NULL))
      ORDER BY state = 'active', rowid LIMIT ?`,
  );
  const removeAllStmt = db.prepare('DELETE FROM listings');
  const removeActiveStmt = db.prepare("DELETE FROM listings WHERE state = 'active'");

  const write = (input: ListingInput, at: number) => {
    const l = listingInput.parse(input);
    upsertStmt.run({ ...l, id_unknown: toSqlBool(l.listing_id === null), at });
  };
  const writes = ledgerWrites(store, write);

  const assetSku = z.object({ asset_id: z.string(), sku: z.string() });

  const repo: ListingsRepo = {
    all: () => parseRows('listings', listingRow, selectAll.all()),
    checkedPages: (pageSize) => rowidPages(db, 'listings', listingRow, pageSize),
    getMany: (ids) => (ids.length === 0 ? [] : parseRows('listings', listingRow, selectMany.all(JSON.stringify(ids)))),
    skusOf: (ids) => new Map(ids.length === 0 ? [] : parseRows('listings', assetSku, selectSkus.all(JSON.stringify(ids))).map((r) => [r.asset_id, r.sku])),
    get(id) {
      const row = selectOne.get(id);
      return row ? parseRow('listings', listingRow, row) : null;
    },
    byListingId(id) {
      const row = selectById.get(id);
      return row ? parseRow('listings', listingRow, row) : null;
    },
    count: (filter = {}) => countOf('listings', (filter.activeOnly ? countActive : countAll).get()),
    upsert: writes.one,
    upsertMany: writes.many,
    update(id, fields) {
      updateStmt.run({
        asset_id: id,
        price: fields.price ?? null,
        promoted: fields.promoted ?? null,
        user_note: fields.user_note ?? null,
        listing_id: fields.listing_id ?? null,
        at: store.clock.now(),
      });
      store.markLedgerChanged('values');
    },
    remove(ids) {
      const removed = deleteWhereIn(store, 'listings', 'asset_id', ids);
      store.markLedgerChanged();
      return removed;
    },
    removeAll(activeOnly) {
      const removed = Number((activeOnly ? removeActiveStmt : removeAllStmt).run().changes);
      store.markLedgerChanged();
      return removed;
    },
    markEnded(ids, state, details) {
      const at = store.clock.now();
      store.transaction(() => {
        for (const id of ids) markEndedStmt.run(state, details.reason, details.tradeId ?? null, at, id);
      });
      store.markLedgerChanged();
    },
    inStates(states) {
      if (states.length === 0) return [];
      const sql = `SELECT * FROM listings WHERE state IN (${states.map(() => '?').join(', ')}) ORDER BY rowid`;
      return parseRows('listings', listingRow, db.prepare(sql).all(...states));
    },
    byTrade: (tradeId) => parseRows('listings', listingRow, byTradeStmt.all(tradeId)),
    idUnknown: () => parseRows('listings', listingRow, idUnknownStmt.all()),
    saleCandidates: (account, sku, price, count) =>
      count <= 0 ? [] : parseRows('listings', listingRow, candidatesStmt.all(account, sku, price, count)),
  };
  return repo;
}
