import type { Store } from './db.ts';

/**
 * What each apply run changed in the ledger, row by row: the values a row
 * had before the run first changed it, and those it left. Kept when a change
 * is settled done, because the ledger itself is overwritten then; an undo of
 * the run reads them (see apply/undo-apply.ts).
 */

/** A listing (by asset ID) or a buy order (by SKU). */
export type AppliedSlot = 'L' | 'B';

/** The values an undo restores: a listing's price, promotion and note; a buy order's price, quantity, active and note. */
export interface RowValues {
  /** Listings only. */
  readonly listing_id: string | null;
  readonly price: number;
  /** Listings only. */
  readonly promoted: 0 | 1 | null;
  /** Buy orders only. */
  readonly quantity: number | null;
  /** Buy orders only. */
  readonly active: 0 | 1 | null;
  readonly user_note: string;
}

export interface AppliedRow {
  readonly runId: number;
  readonly slot: AppliedSlot;
  readonly key: string;
  readonly account: string;
  readonly sku: string;
  /** Null: the row did not exist before the run (it created it). */
  readonly before: RowValues | null;
  /** Null: the run deleted it. */
  readonly after: RowValues | null;
  /** The change that last touched it. */
  readonly kind: string;
  readonly at: number;
}

export type NewAppliedRow = Omit<AppliedRow, 'at'>;

export interface AppliedRepo {
  /** Keeps the row's values before its first change in this run, and after its latest. */
  note(row: NewAppliedRow): void;
  /** Just before a delete-all is recorded: every ledger row it removes, as removed by this run. */
  noteRemovedAll(runId: number, slot: AppliedSlot, activeOnly: boolean): void;
  /** Up to `limit` rows the run changed, after `after` in the table's order (listings, then buy orders, by key). */
  page(runId: number, after: { slot: AppliedSlot; key: string } | null, limit: number): AppliedRow[];
}

interface Record {
  readonly run_id: number;
  readonly slot: AppliedSlot;
  readonly key: string;
  readonly account: string;
  readonly sku: string;
  readonly kind: string;
  readonly at: number;
  readonly [column: string]: string | number | null;
}

const FIELDS = ['listing_id', 'price', 'promoted', 'quantity', 'active', 'note'] as const;

function valuesOf(r: Record, side: 'before' | 'after'): RowValues | null {
  const price = r[`${side}_price`];
  if (typeof price !== 'number') return null;
  const flag = (v: unknown) => (v === 0 || v === 1 ? v : null);
  const listingId = r[`${side}_listing_id`];
  const quantity = r[`${side}_quantity`];
  const note = r[`${side}_note`];
  return {
    listing_id: typeof listingId === 'string' ? listingId : null,
    price,
    promoted: flag(r[`${side}_promoted`]),
    quantity: typeof quantity === 'number' ? quantity : null,
    active: flag(r[`${side}_active`]),
    user_note: typeof note === 'string' ? note : '',
  };
}

/** A side's values in FIELDS' order, all null for a row not there. */
const valuesIn = (v: RowValues | null) => [v?.listing_id ?? null, v?.price ?? null, v?.promoted ?? null, v?.quantity ?? null, v?.active ?? null, v === null ? null : v.user_note];

export function createAppliedRepo(store: Store): AppliedRepo {
  const { db } = store;
  const sides = (side: string) => FIELDS.map((f) => `${side}_${f}`);
  const after = sides('after');
  const upsert = db.prepare(`
    INSERT INTO applied_rows (run_id, slot, key, account, sku, ${[...sides('before'), ...after].join(', ')}, kind, at)
    VALUES (${Array.from({ length: 7 + 2 * FIELDS.length }, () => '?').join(', ')})
    ON CONFLICT (run_id, slot, key) DO UPDATE SET ${after.map((c) => `${c} = excluded.${c}`).join(', ')},
      sku = CASE WHEN excluded.sku = '' THEN sku ELSE excluded.sku END, kind = excluded.kind, at = excluded.at`);
  const gone = `${after.map((c) => `${c} = NULL`).join(', ')}, kind = excluded.kind, at = excluded.at`;
  const removedListings = db.prepare(`
    INSERT INTO applied_rows (run_id, slot, key, account, sku, before_listing_id, before_price, before_promoted, before_note, kind, at)
    SELECT :run_id, 'L', asset_id, account, sku, listing_id, price, promoted, user_note, 'listing.deleteAll', :at FROM listings
      WHERE :active_only = 0 OR state = 'active'
    ON CONFLICT (run_id, slot, key) DO UPDATE SET ${gone}`);
  const removedBuyOrders = db.prepare(`
    INSERT INTO applied_rows (run_id, slot, key, account, sku, before_price, before_quantity, before_active, before_note, kind, at)
    SELECT :run_id, 'B', sku, account, sku, price, quantity, active, user_note, 'buyOrder.deleteAll', :at FROM buy_orders WHERE true
    ON CONFLICT (run_id, slot, key) DO UPDATE SET ${gone}`);
  const firstPage = db.prepare('SELECT * FROM applied_rows WHERE run_id = ? ORDER BY slot, key LIMIT ?');
  const nextPage = db.prepare('SELECT * FROM applied_rows WHERE run_id = ? AND (slot, key) > (?, ?) ORDER BY slot, key LIMIT ?');

  return {
    note(row) {
      // Bound by position: a hundred notes an outcome, and named values in an object built of computed keys cost more than the insert.
      upsert.run(row.runId, row.slot, row.key, row.account, row.sku, ...valuesIn(row.before), ...valuesIn(row.after), row.kind, store.clock.now());
    },
    noteRemovedAll(runId, slot, activeOnly) {
      const at = store.clock.now();
      if (slot === 'L') removedListings.run({ run_id: runId, at, active_only: activeOnly ? 1 : 0 });
      else removedBuyOrders.run({ run_id: runId, at });
    },
    page(runId, after, limit) {
      const rows = after === null ? firstPage.all(runId, limit) : nextPage.all(runId, after.slot, after.key, limit);
      return (rows as unknown as Record[]).map((r) => ({
        runId: r.run_id, slot: r.slot, key: r.key, account: r.account, sku: r.sku,
        before: valuesOf(r, 'before'), after: valuesOf(r, 'after'), kind: r.kind, at: r.at,
      }));
    },
  };
}
