import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { change, changeStatus, type Change } from '../../../src-shared/drafts.ts';
import { notFound, quoted } from '../errors.ts';
import { changeError, changeKind, type ChangeError, type DraftEntry } from './draft-entry.ts';
import { parseRow, parseRows } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * A draft's change as the columns of `draft_entries` and back. A change is
 * checked with the shared schema when it is written; read back, each
 * column's type is read and the change rebuilt from the columns without the
 * field rules again (the table's CHECKs hold its shape), so reading tens of
 * thousands of rows stays cheap. The slot and key name the
 * row a change is about: (L, asset) for a listing's create or edit, (LD,
 * asset) for its delete, (LA, '') for a delete-all; B, BD, BA for buy orders.
 */
const SLOTS = ['L', 'LD', 'LA', 'B', 'BD', 'BA'] as const;
export type Slot = (typeof SLOTS)[number];
const isSlot = (s: string): s is Slot => (SLOTS as readonly string[]).includes(s);

/** The target key of a row (what the rest of the desk names it by): `L:<asset>`, `BD:<sku>`, `LA`. */
export const targetKey = (slot: Slot, key: string): string => (key === '' ? slot : `${slot}:${key}`);

export function splitTarget(target: string): { slot: Slot; key: string } {
  const i = target.indexOf(':');
  const slot = i < 0 ? target : target.slice(0, i);
  const key = i < 0 ? '' : target.slice(i + 1);
  // A target names a row of one of the six slots, with a key exactly where the slot has one.
  if (!isSlot(slot) || (key === '') !== (slot === 'LA' || slot === 'BA')) throw notFound(`There is no change ${quoted(target)} in this draft`);
  return { slot, key };
}

/** The row's columns, every one named (NULL where the kind has no such field). */
export interface ChangeColumns {
  readonly [column: string]: SQLInputValue;
  readonly slot: Slot;
  readonly key: string;
  readonly kind: Change['kind'];
}

const bool = (v: boolean | undefined) => (v === undefined ? null : v ? 1 : 0);

/** The columns of a change; throws (naming the field) for one the shared schema refuses. */
export function changeColumns(input: Change): ChangeColumns {
  const c = change.parse(input);
  const none = {
    account: null, listing_id: null, sku: null, price: null, promoted: null, quantity: null, active: null,
    user_note: null, game: null, active_only: null, replaced: null, if_exists: null,
  };
  switch (c.kind) {
    case 'listing.create':
      return { ...none, slot: 'L', key: c.asset_id, kind: c.kind, account: c.account, price: c.price, promoted: c.promoted, game: c.game, sku: c.sku ?? null, user_note: c.user_note ?? null };
    case 'listing.edit':
      return { ...none, slot: 'L', key: c.asset_id, kind: c.kind, account: c.account, listing_id: c.listing_id, price: c.price, promoted: c.promoted, user_note: c.user_note ?? null };
    case 'listing.delete':
      return { ...none, slot: 'LD', key: c.asset_id, kind: c.kind, account: c.account, if_exists: bool(c.if_exists) };
    case 'listing.deleteAll':
      return { ...none, slot: 'LA', key: '', kind: c.kind, active_only: bool(c.active_only), replaced: c.replaced ?? null };
    case 'buyOrder.create':
      return { ...none, slot: 'B', key: c.sku, kind: c.kind, account: c.account, sku: c.sku, price: c.price, quantity: c.quantity, user_note: c.user_note ?? null };
    case 'buyOrder.edit':
      return { ...none, slot: 'B', key: c.sku, kind: c.kind, account: c.account, sku: c.sku, price: c.price, quantity: c.quantity, active: c.active, user_note: c.user_note ?? null };
    case 'buyOrder.delete':
      return { ...none, slot: 'BD', key: c.sku, kind: c.kind, account: c.account, sku: c.sku, if_exists: bool(c.if_exists) };
    case 'buyOrder.deleteAll':
      return { ...none, slot: 'BA', key: '', kind: c.kind, replaced: c.replaced ?? null };
  }
}

/** A row of draft_entries as SQLite hands it back (the table's CHECKs hold each kind's columns; this reads their types). */
const entryRecord = lazySchema(() => z.object({
  slot: z.enum(SLOTS),
  key: z.string(),
  seq: z.number(),
  kind: changeKind,
  account: z.string().nullable(),
  listing_id: z.string().nullable(),
  sku: z.string().nullable(),
  price: z.number().nullable(),
  promoted: z.number().nullable(),
  quantity: z.number().nullable(),
  active: z.number().nullable(),
  user_note: z.string().nullable(),
  game: z.string().nullable(),
  active_only: z.number().nullable(),
  replaced: z.number().nullable(),
  if_exists: z.number().nullable(),
  status: changeStatus,
  error: z.string().nullable(),
  batch_id: z.string().nullable(),
  updated_at: z.number(),
}));
export type EntryRecord = z.output<typeof entryRecord>;

/** The columns a query reads to rebuild an entry (with a table alias: `e.slot AS slot, …`). */
export const ENTRY_COLUMNS = ['slot', 'key', 'seq', 'kind', 'account', 'listing_id', 'sku', 'price', 'promoted', 'quantity', 'active',
  'user_note', 'game', 'active_only', 'replaced', 'if_exists', 'status', 'error', 'batch_id', 'updated_at'] as const;

export const entrySelect = (alias: string, prefix = ''): string => ENTRY_COLUMNS.map((c) => `${alias}.${c} AS ${prefix}${c}`).join(', ');

const flag = (v: number | null): 0 | 1 => (v === 1 ? 1 : 0);
const withNote = <T extends object>(c: T, note: string | null): T => (note === null ? c : { ...c, user_note: note });
const withIfExists = <T extends object>(c: T, v: number | null): T => (v === null ? c : { ...c, if_exists: v === 1 });
const withReplaced = <T extends object>(c: T, v: number | null): T => (v === null ? c : { ...c, replaced: v });

/** The change a row holds. */
export function changeOf(r: Omit<EntryRecord, 'status' | 'error' | 'batch_id' | 'updated_at' | 'seq'>): Change {
  const account = r.account ?? '';
  switch (r.kind) {
    case 'listing.create': {
      const c = withNote({ kind: r.kind, account, asset_id: r.key, price: r.price ?? 0, promoted: flag(r.promoted), game: r.game ?? '440' }, r.user_note);
      return r.sku === null ? c : { ...c, sku: r.sku };
    }
    case 'listing.edit':
      return withNote({ kind: r.kind, account, asset_id: r.key, listing_id: r.listing_id ?? '', price: r.price ?? 0, promoted: flag(r.promoted) }, r.user_note);
    case 'listing.delete':
      return withIfExists({ kind: r.kind, account, asset_id: r.key }, r.if_exists);
    case 'listing.deleteAll':
      return withReplaced({ kind: r.kind, active_only: r.active_only === 1 }, r.replaced);
    case 'buyOrder.create':
      return withNote({ kind: r.kind, account, sku: r.key, price: r.price ?? 0, quantity: r.quantity ?? 0 }, r.user_note);
    case 'buyOrder.edit':
      return withNote({ kind: r.kind, account, sku: r.key, price: r.price ?? 0, quantity: r.quantity ?? 0, active: flag(r.active) }, r.user_note);
    case 'buyOrder.delete':
      return withIfExists({ kind: r.kind, account, sku: r.key }, r.if_exists);
    case 'buyOrder.deleteAll':
      return withReplaced({ kind: r.kind }, r.replaced);
  }
}

/** A stored error, or null when the column holds none or something unreadable (it only ever words a refusal). */
function errorOf(text: string | null): ChangeError | null {
  if (text === null) return null;
  try {
    const parsed = changeError.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A row of draft_entries (its ENTRY_COLUMNS) as the entry it holds. */
export const readEntry = (row: unknown): DraftEntry => entryOf(parseRow('draft_entries', entryRecord, row));
export const readEntries = (rows: readonly unknown[]): DraftEntry[] => parseRows('draft_entries', entryRecord, rows).map(entryOf);

function entryOf(r: EntryRecord): DraftEntry {
  return {
    target: targetKey(r.slot, r.key), seq: r.seq, change: changeOf(r), status: r.status,
    error: errorOf(r.error), batchId: r.batch_id, updatedAt: r.updated_at,
  };
}
