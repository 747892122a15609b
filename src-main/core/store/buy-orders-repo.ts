import { z } from 'zod';
import { accountId, cents, flag01, quantity, storedSku, storedUserNote } from '../../../src-shared/fields.ts';
import type { Store } from './db.ts';
import { deleteWhereIn, ledgerWrites, parseRow, parseRows, rowidPages, sqlBool, toSqlBool, type CheckedRows } from './sql.ts';
import { countOf } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The ledger of buy orders, named by SKU as the service names them. The
 * create response does not say the stored quantity (the service may cut it to
 * floor(balance / price)), so a created order carries `quantity_may_be_cut`
 * until the balance readings around its create settle it (see
 * apply/buy-order-quantities.ts), or an edit or an import confirms it. While
 * it may be cut, `quantity` is the most it can hold and `quantity_at_least`
 * the least, when known.
 */
export const buyOrderRow = lazySchema(() => z.object({
  sku: storedSku,
  account: accountId,
  price: cents,
  quantity,
  quantity_may_be_cut: sqlBool,
  /** While it may be cut: the least the service can hold (null: anything down to 0). */
  quantity_at_least: z.number().int().nonnegative().nullable(),
  active: flag01,
  user_note: storedUserNote,
  fills_seen: z.number().int().nonnegative(),
  updated_at: z.number().int(),
}));
export type BuyOrderRow = z.output<typeof buyOrderRow>;

export const buyOrderInput = z.strictObject({
  sku: storedSku,
  account: accountId,
  price: cents,
  quantity,
  quantity_may_be_cut: z.boolean().default(false),
  quantity_at_least: z.number().int().nonnegative().nullable().default(null),
  active: flag01.default(1),
  user_note: storedUserNote.default(''),
  fills_seen: z.number().int().nonnegative().default(0),
});
export type BuyOrderInput = z.input<typeof buyOrderInput>;

export interface BuyOrdersRepo {
  all(): BuyOrderRow[];
  /** All rows in the same order, a page at each call (see `rowidPages`). */
  checkedPages(pageSize: number): () => CheckedRows<BuyOrderRow>;
  get(sku: string): BuyOrderRow | null;
  /** The rows of these keys that exist, in one query. */
  getMany(skus: readonly string[]): BuyOrderRow[];
  count(): number;
  upsert(input: BuyOrderInput): void;
  upsertMany(inputs: readonly BuyOrderInput[]): void;
  /** After a confirmed edit: the service checked the balance, so the quantity is as sent. */
  update(sku: string, fields: { price: number; quantity: number; active: 0 | 1; user_note?: string }): void;
  /**
   * What the balance readings around a create tell of the quantity stored:
   * `quantity` exact (mayBeCut false), or at most `quantity` and at least
   * `atLeast`. Changes the row only while it is still the create's as
   * recorded (`created`: its price and requested quantity, still "may be
   * cut"), so a later edit is never overwritten. Returns whether it did.
   */
  settleQuantity(sku: string, created: { price: number; quantity: number }, stored: { quantity: number; mayBeCut: boolean; atLeast: number | null }): boolean;
  /** Counts fills the trade watcher saw, so the trader can tell what is left. */
  addFills(sku: string, count: number): void;
  remove(skus: readonly string[]): number;
  removeAll(): number;
}

export function createBuyOrdersRepo(store: Store): BuyOrdersRepo {
  const { db } = store;
  const selectAll = db.prepare('SELECT * FROM buy_orders ORDER BY rowid');
  const selectOne = db.prepare('SELECT * FROM buy_orders WHERE sku = ?');
  const selectMany = db.prepare('SELECT * FROM buy_orders WHERE sku IN (SELECT value FROM json_each(?))');
  const countStmt = db.prepare('SELECT count(*) AS n FROM buy_orders');
  const upsertStmt = db.prepare(`
    INSERT INTO buy_orders (sku, account, price, quantity, quantity_may_be_cut, quantity_at_least, active, user_note, fills_seen, updated_at)
    VALUES (:sku, :account, :price, :quantity, :cut, :at_least, :active, :user_note, :fills_seen, :at)
    ON CONFLICT (sku) DO UPDATE SET account = excluded.account, price = excluded.price,
      quantity = excluded.quantity, quantity_may_be_cut = excluded.quantity_may_be_cut,
      quantity_at_least = excluded.quantity_at_least, active = excluded.active, user_note = excluded.user_note, fills_seen = excluded.fills_seen,
      updated_at = excluded.updated_at`);
  const updateStmt = db.prepare(`
    UPDATE buy_orders SET price = :price, quantity = :quantity, active = :active,
      user_note = coalesce(:user_note, user_note), quantity_may_be_cut = 0, quantity_at_least = NULL, updated_at = :at WHERE sku = :sku`);
  const settleStmt = db.prepare(`
    UPDATE buy_orders SET quantity = :stored, quantity_may_be_cut = :cut, quantity_at_least = :at_least, updated_at = :at
    WHERE sku = :sku AND quantity_may_be_cut = 1 AND price = :price AND quantity = :requested`);
  const fillsStmt = db.prepare('UPDATE buy_orders SET fills_seen = fills_seen + ?, updated_at = ? WHERE sku = ?');
  const removeAllStmt = db.prepare('DELETE FROM buy_orders');

  const write = (input: BuyOrderInput, at: number) => {
    const b = buyOrderInput.parse(input);
    upsertStmt.run({
      sku: b.sku, account: b.account, price: b.price, quantity: b.quantity,
      cut: toSqlBool(b.quantity_may_be_cut), at_least: b.quantity_at_least, active: b.active, user_note: b.user_note, fills_seen: b.fills_seen, at,
    });
  };
  const writes = ledgerWrites(store, write);

  return {
    all: () => parseRows('buy_orders', buyOrderRow, selectAll.all()),
    checkedPages: (pageSize) => rowidPages(db, 'buy_orders', buyOrderRow, pageSize),
    getMany: (ids) => (ids.length === 0 ? [] : parseRows('buy_orders', buyOrderRow, selectMany.all(JSON.stringify(ids)))),
    get(id) {
      const row = selectOne.get(id);
      return row ? parseRow('buy_orders', buyOrderRow, row) : null;
    },
    count: () => countOf('buy_orders', countStmt.get()),
    upsert: writes.one,
    upsertMany: writes.many,
    update(id, fields) {
      updateStmt.run({ sku: id, price: fields.price, quantity: fields.quantity, active: fields.active, user_note: fields.user_note ?? null, at: store.clock.now() });
      store.markLedgerChanged('values');
    },
    settleQuantity(id, created, stored) {
      const changed = settleStmt.run({
        sku: id, price: created.price, requested: created.quantity,
        stored: stored.quantity, cut: toSqlBool(stored.mayBeCut), at_least: stored.atLeast, at: store.clock.now(),
      }).changes;
      if (Number(changed) === 0) return false;
      store.markLedgerChanged('values');
      return true;
    },
    addFills(id, count) {
      fillsStmt.run(count, store.clock.now(), id);
      store.markLedgerChanged('values');
    },
    remove(skus) {
      const removed = deleteWhereIn(store, 'buy_orders', 'sku', skus);
      store.markLedgerChanged();
      return removed;
    },
    removeAll() {
      const removed = Number(removeAllStmt.run().changes);
      store.markLedgerChanged();
      return removed;
    },
  };
}
