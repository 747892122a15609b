import { z } from 'zod';
import { cents, flag01, quantity, userNote } from '../../../src-shared/fields.ts';
import { buyOrderKey, isLockedStatus, isSettled, listingKey, type Change, type DraftEntry } from './change.ts';
import type { LedgerView } from './ledger-view.ts';
import type { EntryLayer, WorkingSet } from './working-set.ts';

/**
 * A bulk operation as stored: the field values it set on each target, written
 * as one row the moment the operation is made (one small write instead of
 * tens of thousands) and folded into per-target rows afterwards. Replaying a
 * patch sets the same fields again, so folding is safe to repeat after a crash.
 */
export const patchFields = z.strictObject({
  price: cents.optional(),
  promoted: flag01.optional(),
  user_note: userNote.optional(),
  active: flag01.optional(),
  quantity: quantity.optional(),
});
export type PatchFields = z.infer<typeof patchFields>;

export const patchBody = z.strictObject({
  domain: z.enum(['listings', 'buyOrders']),
  /** Asset IDs (listings) or SKUs (buy orders). */
  ids: z.array(z.string()),
  /** Fields set to the same value on every target. */
  set: patchFields,
  /** Per-target prices, parallel to `ids`, when the operation computed them. */
  prices: z.array(cents).optional(),
});
export type PatchBody = z.infer<typeof patchBody>;

/**
 * Lays a patch over the working set at once (a draft read back replays its
 * stored patches so). A bulk edit lays the same layer lazily instead (see
 * EntryIndex.lay): written in while the app is idle, or when the draft is
 * next read in full.
 */
export function applyPatch(ws: WorkingSet, ledger: LedgerView, seq: number, body: PatchBody, now: number): void {
  ws.entries.lay(patchLayer(ledger, seq, body, now));
  ws.entries.writeIn(Number.POSITIVE_INFINITY);
}

/**
 * What a patch makes of each target: the patch's fields on top of its current
 * change (or an edit built from the ledger when it has none). Entries already
 * newer than the patch are left alone, which makes a replay after a crash
 * land exactly where the live session was; so are entries being applied.
 */
export function patchLayer(
  ledger: LedgerView, seq: number, body: PatchBody, now: number,
  /** Where each target comes in `body.ids`, when already known (see PatchEffect); built on first use otherwise. */
  known?: ReadonlyMap<string, number>,
): EntryLayer {
  const { domain, ids, set, prices } = body;
  const listings = domain === 'listings';
  let positions: ReadonlyMap<string, number> | null = known ?? null;
  const leaves = (before: DraftEntry | undefined) => before !== undefined && (before.seq >= seq || isLockedStatus(before.status));
  const open = (before: DraftEntry | undefined) => before !== undefined && !isSettled(before.status);
  return {
    slot: listings ? 'L' : 'B',
    ids,
    entryAt(i, before) {
      if (leaves(before)) return null;
      const id = ids[i] as string;
      const base = open(before) ? (before as DraftEntry).change : baseFromLedger(domain, id, ledger);
      // The per-target price is passed apart: no object is built per row just to carry it.
      const next = base && withFields(base, set, prices?.[i] ?? set.price);
      if (!next) return null;
      const target = before?.target ?? (listings ? listingKey(id) : buyOrderKey(id));
      return { target, seq, change: next, status: 'pending', error: null, batchId: null, updatedAt: now };
    },
    kindAt(i, before) {
      if (leaves(before)) return null;
      const kind = open(before) ? (before as DraftEntry).change.kind : ledgerKind(domain, ids[i] as string, ledger);
      return kind !== null && PATCHED_KINDS.has(kind) ? kind : null;
    },
    indexOf(id) {
      if (positions === null) {
        const built = new Map<string, number>();
        for (let i = ids.length - 1; i >= 0; i--) built.set(ids[i] as string, i);
        positions = built;
      }
      return positions.get(id) ?? -1;
    },
  };
}

/** The kinds a patch sets fields on (withFields); it leaves every other kind as it is. */
const PATCHED_KINDS: ReadonlySet<Change['kind']> = new Set(['listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit']);

/** The kind of change baseFromLedger builds for a target, without building it. */
function ledgerKind(domain: PatchBody['domain'], id: string, ledger: LedgerView): Change['kind'] | null {
  if (domain === 'listings') {
    const row = ledger.listings.get(id);
    return row && row.listing_id !== null ? 'listing.edit' : null;
  }
  return ledger.buyOrders.has(id) ? 'buyOrder.edit' : null;
}

function baseFromLedger(domain: PatchBody['domain'], id: string, ledger: LedgerView): Change | null {
  if (domain === 'listings') {
    const row = ledger.listings.get(id);
    if (!row || row.listing_id === null) return null;
    return { kind: 'listing.edit', account: row.account, asset_id: id, listing_id: row.listing_id, price: row.price, promoted: row.promoted };
  }
  const row = ledger.buyOrders.get(id);
  if (!row) return null;
  return { kind: 'buyOrder.edit', account: row.account, sku: id, price: row.price, quantity: row.quantity, active: row.active };
}

/**
 * The change with the fields that apply to its kind replaced (`price` is the
 * patch's price for this target); null for kinds
 * a patch does not touch. Built field by field rather than spread: this runs
 * for every row of a bulk operation.
 */
function withFields(c: Change, f: PatchFields, price: number | undefined): Change | null {
  switch (c.kind) {
    case 'listing.create':
      return optionalNote({
        kind: c.kind, account: c.account, asset_id: c.asset_id, price: price ?? c.price, promoted: f.promoted ?? c.promoted,
        game: c.game, ...(c.sku === undefined ? {} : { sku: c.sku }),
      }, f.user_note ?? c.user_note);
    case 'listing.edit':
      return optionalNote({
        kind: c.kind, account: c.account, asset_id: c.asset_id, listing_id: c.listing_id,
        price: price ?? c.price, promoted: f.promoted ?? c.promoted,
      }, f.user_note ?? c.user_note);
    case 'buyOrder.create':
      return optionalNote({ kind: c.kind, account: c.account, sku: c.sku, price: price ?? c.price, quantity: f.quantity ?? c.quantity }, f.user_note ?? c.user_note);
    case 'buyOrder.edit':
      return optionalNote({
        kind: c.kind, account: c.account, sku: c.sku, price: price ?? c.price, quantity: f.quantity ?? c.quantity, active: f.active ?? c.active,
      }, f.user_note ?? c.user_note);
    default:
      return null;
  }
}

/** Adds `user_note` only when there is one: an absent note means "leave it" on the wire. */
function optionalNote<T extends Change>(c: T, note: string | undefined): T {
  if (note !== undefined) (c as { user_note?: string }).user_note = note;
  return c;
}
