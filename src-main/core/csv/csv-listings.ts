import { DEFAULT_GAME, skuLabel, userNote } from '../../../src-shared/fields.ts';
import { listingInput, type ListingRow } from '../store/listings-repo.ts';
import type { z } from 'zod';
import { changeInput, type ParsedChangeInput } from '../drafts/change.ts';
import { flagCell, idCell, issueReasons, priceCell, textCell, DOLLARS, type PriceFormat } from './csv-cells.ts';
import { listingLockReason, rowAccount, rowSku, type ImportContext } from './csv-context.ts';
import { COMMA_FILE, dollarsIn, duplicateTracker, echoed, writeCsv, type CsvColumns, type FileShape, type CsvLineError, type CsvRecord, type SeenKeys } from './csv-format.ts';
import { definedOf } from '../drafts/merge.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The listings ledger as CSV. A row with a `listing_id` names a listing that
 * is already on the market (made on the website or by another tool): importing
 * it adopts it into the ledger, which is how a trader brings listings under
 * the app's control, since the service cannot list them back. A row without
 * one is an asset to list: it becomes a `listing.create` in a draft.
 * Prices are in dollars ("4.50", as every screen shows them); a file of the
 * previous version, in `price_cents`, still imports. The item's name is
 * written beside its SKU, and a row may name its item instead of its SKU.
 */
export const LISTING_COLUMNS: CsvColumns = {
  all: ['listing_id', 'asset_id', 'sku', 'name', 'price', 'promoted', 'game', 'user_note', 'account', 'state'],
  required: ['asset_id', 'price'],
};

/** The ledger as a file (a part of one: `fileText` puts the byte order mark in front); `nameOf` names each row's item (empty without a SKU). */
export function listingsToCsv(rows: Iterable<ListingRow>, nameOf: (sku: string) => string = () => '', shape: FileShape = COMMA_FILE): string {
  const out = [];
  for (const r of rows) {
    out.push({
      listing_id: r.listing_id, asset_id: r.asset_id, sku: r.sku, name: r.sku === '' ? '' : nameOf(r.sku), price: dollarsIn(shape, r.price),
      promoted: r.promoted, game: r.game, user_note: r.user_note, account: r.account, state: r.state,
    });
  }
  return writeCsv(LISTING_COLUMNS.all, out, shape);
}

/** A listing adopted from a file: the ledger's input with today's rules for what the trader wrote. */
const adoptedListing = lazySchema(() => listingInput.extend({ user_note: userNote.default(''), sku: skuLabel.default('') }));
export type AdoptedListing = z.output<typeof adoptedListing>;

export interface ListingsImport {
  readonly adopt: { readonly line: number; readonly row: AdoptedListing }[];
  /** Draft inputs (`listing.create`) as the shared schema parsed them, each with its line. */
  readonly create: { readonly line: number; readonly input: ParsedChangeInput }[];
  readonly errors: CsvLineError[];
  /** New listings whose asset the account's inventory as last read does not hold: drafted, and said. */
  readonly notInInventory: { readonly line: number; readonly assetId: string }[];
}

/** Sorts rows into adoptions and creates, refusing each bad row with every reason it has. */
export function readListingsImport(records: readonly CsvRecord[], ctx: ImportContext, prices: PriceFormat = DOLLARS, seen: (what: string) => SeenKeys = () => duplicateTracker()): ListingsImport {
  const result: ListingsImport = { adopt: [], create: [], errors: [], notInInventory: [] };
  const seenAsset = seen('asset');
  const seenListing = seen('listing');
  for (const { line, cells } of records) {
    const reasons: string[] = [];
    const asset = idCell(cells.asset_id);
    const listingId = idCell(cells.listing_id);
    const firstAsset = asset === undefined ? null : seenAsset(asset, line);
    if (firstAsset !== null) reasons.push(`asset_id: ${echoed(asset ?? '')} is on line ${firstAsset} already`);
    const firstListing = listingId === undefined ? null : seenListing(listingId, line);
    if (firstListing !== null) reasons.push(`listing_id: ${echoed(listingId ?? '')} is on line ${firstListing} already`);
    const owner = rowAccount(idCell(cells.account), ctx);
    if (owner.reason) reasons.push(owner.reason);
    const item = rowSku(cells, ctx);
    if (item.reason) reasons.push(item.reason);
    const fields = {
      asset_id: asset, price: priceCell(cells, prices), promoted: flagCell(cells.promoted) ?? 0,
      game: idCell(cells.game) ?? DEFAULT_GAME, user_note: textCell(cells.user_note), account: owner.account, sku: item.sku,
    };
    if (listingId !== undefined) {
      const parsed = adoptedListing.safeParse({ ...fields, listing_id: listingId, state: idCell(cells.state) });
      if (!parsed.success) reasons.push(...issueReasons(parsed.error.issues, cells, prices));
      else reasons.push(...adoptionConflicts(parsed.data, ctx));
      if (reasons.length === 0 && parsed.success) result.adopt.push({ line, row: parsed.data });
    } else {
      if (!ctx.draftOpen) reasons.push('listing_id: is required to adopt a listing already on the market; to list this asset, import into a draft');
      const state = idCell(cells.state);
      if (state !== undefined && state !== 'active') reasons.push('state: a new listing starts active; leave it empty');
      const input = definedOf({ kind: 'listing.create' as const, ...fields });
      const parsed = changeInput.safeParse(input);
      if (!parsed.success) reasons.push(...issueReasons(parsed.error.issues, cells, prices));
      if (reasons.length === 0 && parsed.success) result.create.push({ line, input: parsed.data });
    }
    if (reasons.length > 0) result.errors.push({ line, reason: reasons.join('; ') });
  }
  nameFromInventory(result, ctx);
  return result;
}

/**
 * Names the new listings a file gives by asset ID alone from the inventory
 * as last read, as the picker drafts them, so the review names them from the
 * start; one the account's inventory (read at least once) does not hold is
 * drafted and said, since the item may have arrived since the read.
 */
function nameFromInventory(result: ListingsImport, ctx: ImportContext): void {
  const kept = ctx.kept;
  if (kept === undefined || result.create.length === 0) return;
  const found = kept.of(result.create.flatMap(({ input }) => (input.kind === 'listing.create' ? [input.asset_id] : [])));
  const read = kept.readAccounts();
  result.create.forEach((row, i) => {
    const { input } = row;
    if (input.kind !== 'listing.create') return;
    const item = found.get(input.asset_id);
    const account = input.account ?? ctx.mainAccount ?? '';
    if (item?.account === account) {
      if (input.sku === undefined && item.sku !== '') result.create[i] = { line: row.line, input: { ...input, sku: item.sku } };
    } else if (read.has(account)) result.notInInventory.push({ line: row.line, assetId: input.asset_id });
  });
}

function adoptionConflicts(row: AdoptedListing, ctx: ImportContext): string[] {
  const reasons: string[] = [];
  const holder = row.listing_id === null ? undefined : (ctx.ledger.listingById(row.listing_id) ?? undefined);
  if (holder && holder.asset_id !== row.asset_id) reasons.push(`listing_id: the ledger has ${row.listing_id} for asset ${holder.asset_id}`);
  const locked = listingLockReason(row.asset_id, ctx);
  if (locked) reasons.push(locked);
  return reasons;
}
