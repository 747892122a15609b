import { z } from 'zod';
import { changeStatus, type ChangeKind, type ChangeStatus } from '../../../src-shared/drafts.ts';
import type { Store } from './db.ts';
import { ENTRY_COLUMNS, readEntries, type Slot } from './draft-columns.ts';
import { changeKind, type DraftEntry } from './draft-entry.ts';
import { itemTextSql } from './item-match.ts';
import { parseRow, parseRows, plainRows, sqlBool } from './sql.ts';
import { countOf, type Params } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * A draft's review, in SQL (core/drafts/review.ts says what it means): its
 * changes counted by status and kind, the requests its next apply sends
 * counted a part of the draft at a time, the price changes among them, and
 * its rows a kind at a time, in the order they were made.
 */

/** Which changes a page of the review lists. */
export type ReviewShow = 'open' | 'failed' | 'unknown' | 'all';

/**
 * Rows of the draft counted in one step of a review. With no whole-draft count left in a step, a part's statements are
 * its longest: at 4,000 rows the worker's delay read 41-45 ms at 50,000 listings on a slow day, at 2,000 26-30 ms,
 * for a review ~10 % longer in all.
 */
const PART = 2_000;

const OPEN_SQL = "('pending', 'queued', 'sent', 'failed', 'unknown')";
const SENDABLE_SQL = "('pending', 'failed')";

/**
 * Where a part ends: (to_slot, to_key), or past every slot for the last part
 * ('~' sorts after the capital letters slots are named with). A bound that
 * is a value, not "no bound or this one", is one SQLite reads the primary
 * key's range by: with the OR, each part read every row after its start to
 * the draft's end, and a review of 47,000 changes read its rows six times
 * over in twelve parts (the last ones 4,000 rows, the first 47,000).
 */
const PART_END = "coalesce(:to_slot, '~'), coalesce(:to_key, '')";

/**
 * The sendable rows an apply will send (no-op edits and changes to listings
 * the service no longer holds need no request), with the request group each
 * goes in: endpoint (its kind), proxy (a create for a linked account) and
 * phase (a create waits for a delete of the same asset or SKU sent with it).
 */
const SENT_ROWS = `
  SELECT e.kind AS kind, e.slot AS slot, e.key AS key, e.price AS price,
    CASE WHEN e.kind IN ('listing.create', 'buyOrder.create') AND e.account != :main THEN e.account ELSE '' END AS proxy,
    CASE WHEN e.kind IN ('listing.deleteAll', 'buyOrder.deleteAll') THEN 0
      WHEN e.kind IN ('listing.create', 'buyOrder.create') AND EXISTS (SELECT 1 FROM draft_entries d WHERE d.draft_id = e.draft_id
        AND d.slot = CASE e.slot WHEN 'L' THEN 'LD' ELSE 'BD' END AND d.key = e.key AND d.status IN ${SENDABLE_SQL}) THEN 2
      ELSE 1 END AS phase,
    coalesce(l.price, b.price) AS ledger_price, coalesce(l.sku, b.sku, '') AS ledger_sku
  FROM draft_entries e
  LEFT JOIN listings l ON e.slot IN ('L', 'LD') AND l.asset_id = e.key
  LEFT JOIN buy_orders b ON e.slot IN ('B', 'BD') AND b.sku = e.key
  WHERE e.draft_id = :draft AND e.status IN ${SENDABLE_SQL}
    AND (e.slot, e.key) > (:from_slot, :from_key) AND (e.slot, e.key) <= (${PART_END})
    AND NOT (e.kind = 'listing.edit' AND l.asset_id IS NOT NULL AND l.listing_id IS e.listing_id AND l.price = e.price
      AND l.promoted = e.promoted AND (e.user_note IS NULL OR e.user_note = l.user_note))
    AND NOT (e.kind = 'buyOrder.edit' AND b.sku IS NOT NULL AND b.quantity_may_be_cut = 0 AND b.price = e.price
      AND b.quantity = e.quantity AND b.active = e.active AND (e.user_note IS NULL OR e.user_note = b.user_note))
    AND NOT (e.kind IN ('listing.edit', 'listing.delete') AND l.state IN ('sold_in_trade', 'sold', 'not_on_service'))`;

/**
 * The statements that read a part of a draft, each by the primary key's
 * range from the part's start to its end, so that a review reads each row
 * once (test/core/store/review-reads.test.ts reads their plans).
 */
export const PART_SQL = {
  groups: `SELECT kind, proxy, phase, count(*) AS n FROM (${SENT_ROWS}) GROUP BY kind, proxy, phase`,
  priced: `SELECT kind, key, ledger_price, price, ledger_sku FROM (${SENT_ROWS})
    WHERE kind IN ('listing.edit', 'buyOrder.edit') AND ledger_price IS NOT NULL AND price != ledger_price`,
  // No `slot = 'L'` beside the kind (a create is always in its slot L): with it SQLite read the slot's every row for each part.
  // The changes by status and kind, counted a part at a time too: at 47,000 changes, the whole draft's count by kind
  // read its status index and then every row's kind (~24 ms in one step), and its count by status ~10 more.
  tally: `SELECT status, kind, status IN ${OPEN_SQL} AS open, count(*) AS n FROM draft_entries e WHERE e.draft_id = :draft AND e.status != 'dropped'
    AND (e.slot, e.key) > (:from_slot, :from_key) AND (e.slot, e.key) <= (${PART_END}) GROUP BY status, kind`,
  creates: `SELECT e.key AS key, coalesce(nullif(e.sku, ''), (SELECT i.sku FROM inventory_items i
      JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation WHERE i.asset_id = e.key LIMIT 1), '') AS sku, e.price AS price
    FROM draft_entries e WHERE e.draft_id = :draft AND e.kind = 'listing.create' AND e.status IN ${SENDABLE_SQL}
      AND (e.slot, e.key) > (:from_slot, :from_key) AND (e.slot, e.key) <= (${PART_END})`,
} as const;

/** A part of a draft: its rows after (from_slot, from_key), up to (to_slot, to_key) or its end. */
export interface PartBounds {
  readonly draft: string;
  readonly main: string;
  readonly from_slot: string;
  readonly from_key: string;
  readonly to_slot: string | null;
  readonly to_key: string | null;
}

export interface ReviewReads {
  /** The draft in parts of PART rows in key order; `mainAccount` tells a linked account's creates apart. */
  parts(draftId: string, mainAccount: string): Generator<PartBounds>;
  /** A part's changes by status and kind, removed ones left out; `open`: still to send or resolve. */
  tally(bounds: PartBounds): { status: ChangeStatus; kind: ChangeKind; open: boolean; n: number }[];
  /** The requests of a part's sendable rows, grouped: endpoint (kind), the linked account a create acts for ('' for none), phase. */
  requestGroups(bounds: PartBounds): { kind: ChangeKind; proxy: string; phase: 0 | 1 | 2; n: number }[];
  /** The price edits of a part the next apply sends, with the ledger's price. */
  pricedEdits(bounds: PartBounds): Iterable<{ kind: ChangeKind; key: string; ledger_price: number; price: number; ledger_sku: string }>;
  /** The listing creates of a part the next apply sends, each with its SKU: its own, else the kept inventory's ('' when neither knows it). */
  pricedCreates(bounds: PartBounds): { key: string; sku: string; price: number }[];
  /** The draft's delete-alls the next apply sends. */
  sendableDeleteAlls(draftId: string): { kind: ChangeKind; active_only: number | null }[];
  /** How many changes of a kind a page of the review lists. */
  countOfKind(draftId: string, kind: ChangeKind, show: ReviewShow, text?: string): number;
  /** Up to `limit` changes of a kind, in the order made: after a row (paging on), or after skipping some; `text` as for `countOfKind`. */
  entriesOfKind(
    draftId: string, kind: ChangeKind, show: ReviewShow, from: { after: { seq: number; slot: Slot; key: string } } | { skip: number }, limit: number, text?: string,
  ): DraftEntry[];
}

const statusKindCount = lazySchema(() => z.object({ status: changeStatus, kind: changeKind, open: sqlBool, n: z.number() }));
const slotKey = lazySchema(() => z.object({ slot: z.string(), key: z.string() }));
const requestGroup = lazySchema(() => z.object({ kind: changeKind, proxy: z.string(), phase: z.union([z.literal(0), z.literal(1), z.literal(2)]), n: z.number() }));
const pricedEdit = lazySchema(() => z.object({ kind: changeKind, key: z.string(), ledger_price: z.number(), price: z.number(), ledger_sku: z.string() }));
const pricedCreate = lazySchema(() => z.object({ key: z.string(), sku: z.string(), price: z.number() }));
const deleteAll = lazySchema(() => z.object({ kind: changeKind, active_only: z.number().nullable() }));

/**
 * The item search over a change (item-match.ts): its item is the SKU it
 * names, a buy order's key, or the listing's in the ledger for an edit or a
 * delete named by asset ID; its key and note are looked in as typed.
 */
function textWhere(text: string | undefined): { sql: string; params: Params } {
  const sku = `CASE WHEN slot IN ('B', 'BD') THEN key ELSE coalesce(nullif(sku, ''), (SELECT l.sku FROM listings l WHERE l.asset_id = draft_entries.key), '') END`;
  const part = itemTextSql(text ?? '', { sku: `(${sku})`, texts: ['fold(key)', "fold(coalesce(user_note, ''))"] }, 'r_text');
  return part === null ? { sql: '', params: {} } : { sql: ` AND ${part.sql}`, params: part.params };
}

function statusFilter(show: ReviewShow): string {
  if (show === 'all') return "status != 'dropped'";
  return show === 'open' ? `status IN ${OPEN_SQL}` : `status = '${show === 'failed' ? 'failed' : 'unknown'}'`;
}

/** A part's bounds alone (a statement that does not name the main account is refused it). */
const range = (b: PartBounds) => ({ draft: b.draft, from_slot: b.from_slot, from_key: b.from_key, to_slot: b.to_slot, to_key: b.to_key });

export function createReviewReads(store: Pick<Store, 'db'>): ReviewReads {
  const { db } = store;
  const cols = ENTRY_COLUMNS.join(', ');
  const tally = db.prepare(PART_SQL.tally);
  const groups = db.prepare(PART_SQL.groups);
  // Where the next part of a draft ends: PART rows on, in key order (null: the draft ends sooner).
  const partEnd = db.prepare(`SELECT slot, key FROM draft_entries WHERE draft_id = ? AND (slot, key) > (?, ?) ORDER BY slot, key LIMIT 1 OFFSET ${PART - 1}`);
  const priced = db.prepare(PART_SQL.priced);
  const creates = db.prepare(PART_SQL.creates);
  const deleteAlls = db.prepare(`SELECT kind, active_only FROM draft_entries WHERE draft_id = ? AND slot IN ('LA', 'BA') AND status IN ${SENDABLE_SQL}`);
  return {
    *parts(draftId, mainAccount) {
      let from: { slot: string; key: string } = { slot: '', key: '' };
      for (;;) {
        const end = partEnd.get(draftId, from.slot, from.key);
        const to = end === undefined ? undefined : parseRow('draft_entries', slotKey, end);
        yield { draft: draftId, main: mainAccount, from_slot: from.slot, from_key: from.key, to_slot: to?.slot ?? null, to_key: to?.key ?? null };
        if (!to) return;
        from = to;
      }
    },
    tally: (bounds) => parseRows('draft_entries', statusKindCount, tally.all(range(bounds))),
    requestGroups: (bounds) => parseRows('draft_entries', requestGroup, groups.all({ ...bounds })),
    *pricedEdits(bounds) {
      for (const row of priced.iterate({ ...bounds })) yield parseRow('draft_entries', pricedEdit, row);
    },
    pricedCreates: (bounds) => parseRows('draft_entries', pricedCreate, creates.all(range(bounds))),
    sendableDeleteAlls: (draftId) => parseRows('draft_entries', deleteAll, deleteAlls.all(draftId)),
    countOfKind(draftId, kind, show, text) {
      const t = textWhere(text);
      return countOf('draft_entries', db.prepare(`SELECT count(*) AS n FROM draft_entries WHERE draft_id = ? AND kind = ? AND ${statusFilter(show)}${t.sql}`)
        .get(t.params, draftId, kind));
    },
    entriesOfKind(draftId, kind, show, from, limit, text) {
      const after = 'after' in from ? from.after : null;
      const t = textWhere(text);
      const sql = `SELECT ${cols} FROM draft_entries WHERE draft_id = ? AND kind = ? AND ${statusFilter(show)}${t.sql}
          ${after ? 'AND (seq, slot, key) > (?, ?, ?)' : ''} ORDER BY seq, slot, key LIMIT ? ${after ? '' : 'OFFSET ?'}`;
      const args = after ? [draftId, kind, after.seq, after.slot, after.key, limit] : [draftId, kind, limit, 'skip' in from ? from.skip : 0];
      return readEntries(plainRows(db.prepare(sql), t.params, ...args));
    },
  };
}
