import {
  BUY_ORDERS_DELETE_ALL, buyOrderDeleteKey, buyOrderKey, changeInput, LISTINGS_DELETE_ALL, listingDeleteKey, listingKey,
  type Change, type ChangeKind, type ParsedChangeInput,
} from '../drafts/change.ts';
import { flagCell, idCell, issueReasons, numberCell, priceCell, textCell, DOLLARS, type PriceFormat } from './csv-cells.ts';
import { rowSku, type ImportContext } from './csv-context.ts';
import { COMMA_FILE, dollarsIn, duplicateTracker, echoed, writeCsv, type CellValue, type FileShape, type CsvColumns, type CsvLineError, type CsvRecord, type SeenKeys } from './csv-format.ts';
import { definedOf } from '../drafts/merge.ts';

/**
 * A draft's changes as CSV, one row per change in the order they were made
 * (a delete before the relist of the same asset). Each kind uses only its own
 * columns; a value in another column is refused rather than ignored, since it
 * usually means the row was shifted in a spreadsheet. On an edit, an empty
 * `user_note` leaves the note alone and `clear_note` = 1 removes it (a CSV
 * cell cannot tell "empty" from "absent"). Prices are in dollars (the
 * previous version's `price_cents` still imports). `name` names the item of
 * any row, for the trader to read; where a kind takes a SKU, a name can stand
 * in for it.
 */
export const DRAFT_COLUMNS: CsvColumns = {
  all: ['kind', 'account', 'asset_id', 'listing_id', 'sku', 'name', 'price', 'promoted', 'game', 'quantity', 'active', 'user_note', 'clear_note', 'active_only'],
  required: ['kind'],
};

const COLUMNS_OF: Readonly<Record<ChangeKind, readonly string[]>> = {
  'listing.create': ['account', 'asset_id', 'sku', 'price', 'promoted', 'game', 'user_note'],
  'listing.edit': ['account', 'asset_id', 'listing_id', 'price', 'promoted', 'user_note', 'clear_note'],
  'listing.delete': ['account', 'asset_id'],
  'listing.deleteAll': ['active_only'],
  'buyOrder.create': ['account', 'sku', 'price', 'quantity', 'user_note'],
  'buyOrder.edit': ['account', 'sku', 'price', 'quantity', 'active', 'user_note', 'clear_note'],
  'buyOrder.delete': ['account', 'sku'],
  'buyOrder.deleteAll': [],
};
/** Kinds whose row names its item by SKU (or by name in its stead). */
const TAKES_SKU: ReadonlySet<ChangeKind> = new Set(['listing.create', 'buyOrder.create', 'buyOrder.edit', 'buyOrder.delete']);
const KINDS = Object.keys(COLUMNS_OF) as ChangeKind[];
const isKind = (k: string | undefined): k is ChangeKind => k !== undefined && (KINDS as string[]).includes(k);

/** An edit's note: absent leaves it, empty removes it (written as clear_note = 1). */
const editNote = (note: string | undefined) => (note === undefined ? {} : note === '' ? { clear_note: 1 } : { user_note: note });

function changeRow(c: Change, shape: FileShape): Record<string, CellValue> {
  const dollars = (cents: number | undefined) => (cents === undefined ? undefined : dollarsIn(shape, cents));
  switch (c.kind) {
    case 'listing.create':
      return { kind: c.kind, account: c.account, asset_id: c.asset_id, sku: c.sku, price: dollars(c.price), promoted: c.promoted, game: c.game, user_note: c.user_note };
    case 'listing.edit':
      return { kind: c.kind, account: c.account, asset_id: c.asset_id, listing_id: c.listing_id, price: dollars(c.price), promoted: c.promoted, ...editNote(c.user_note) };
    case 'listing.delete':
      return { kind: c.kind, account: c.account, asset_id: c.asset_id };
    case 'listing.deleteAll':
      return { kind: c.kind, active_only: c.active_only };
    case 'buyOrder.create':
      return { kind: c.kind, account: c.account, sku: c.sku, price: dollars(c.price), quantity: c.quantity, user_note: c.user_note };
    case 'buyOrder.edit':
      return { kind: c.kind, account: c.account, sku: c.sku, price: dollars(c.price), quantity: c.quantity, active: c.active, ...editNote(c.user_note) };
    case 'buyOrder.delete':
      return { kind: c.kind, account: c.account, sku: c.sku };
    case 'buyOrder.deleteAll':
      return { kind: c.kind };
  }
}

/** A draft's changes as a file; `nameOf` names the item a change is about (empty when unknown). */
export function changesToCsv(changes: Iterable<Change>, nameOf: (c: Change) => string = () => '', shape: FileShape = COMMA_FILE): string {
  const rows = [];
  for (const c of changes) {
    const name = nameOf(c);
    rows.push({ ...changeRow(c, shape), ...(name === '' ? {} : { name }) });
  }
  return writeCsv(DRAFT_COLUMNS.all, rows, shape);
}

export interface DraftImport {
  /** Inputs for the draft service as the shared schema parsed them, each with its line; merge rules run when they are added. */
  readonly changes: { readonly line: number; readonly input: ParsedChangeInput }[];
  readonly errors: CsvLineError[];
}

export function readDraftImport(records: readonly CsvRecord[], ctx: ImportContext, prices: PriceFormat = DOLLARS, seenKeys: (what: string) => SeenKeys = () => duplicateTracker()): DraftImport {
  const result: DraftImport = { changes: [], errors: [] };
  const seen = seenKeys('target');
  for (const { line, cells } of records) {
    const reasons: string[] = [];
    const kind = idCell(cells.kind);
    if (!isKind(kind)) {
      const why = kind === undefined ? 'is required' : `must be one of ${KINDS.join(', ')}`;
      result.errors.push({ line, reason: `kind: ${why}` });
      continue;
    }
    for (const column of Object.keys(cells)) {
      const used = column === 'kind' || column === 'name' || COLUMNS_OF[kind].includes(column === 'price_cents' ? 'price' : column);
      if (!used) reasons.push(`${column}: not used by ${kind}; leave it empty`);
    }
    const item = TAKES_SKU.has(kind) ? rowSku(cells, ctx) : { sku: idCell(cells.sku), reason: null };
    if (item.reason) reasons.push(item.reason);
    const input = inputOf(kind, cells, reasons, prices, item.sku);
    const parsed = changeInput.safeParse(input);
    if (!parsed.success) reasons.push(...issueReasons(parsed.error.issues.filter((i) => !(item.reason && i.path[0] === 'sku')), cells, prices));
    else reasons.push(...ownerMismatch(parsed.data, idCell(cells.account), ctx));
    const key = duplicateKey(kind, item.sku === undefined ? cells : { ...cells, sku: item.sku }, ctx);
    const first = key === null ? null : seen(key.key, line);
    if (first !== null && key !== null) reasons.push(`${key.column}: ${echoed(key.id)} has a change on line ${first} already`);
    if (reasons.length > 0) result.errors.push({ line, reason: reasons.join('; ') });
    else if (parsed.success) result.changes.push({ line, input: parsed.data });
  }
  return result;
}

/** The draft input a row asks for; cell shape problems the schema cannot word go to `reasons`. */
function inputOf(kind: ChangeKind, cells: Readonly<Record<string, string>>, reasons: string[], prices: PriceFormat, sku: string | undefined): Record<string, unknown> {
  const price = priceCell(cells, prices);
  const quantity = numberCell(cells.quantity);
  const note = textCell(cells.user_note);
  const clear = flagCell(cells.clear_note);
  if (clear !== undefined && clear !== 0 && clear !== 1) reasons.push('clear_note: must be 0 or 1');
  if (clear === 1 && note !== undefined) reasons.push('clear_note: 1 removes the note; leave user_note empty');
  const editedNote = clear === 1 ? '' : note;
  const account = idCell(cells.account);
  const asset_id = idCell(cells.asset_id);
  switch (kind) {
    case 'listing.create':
      return definedOf({ kind, account, asset_id, sku, price, promoted: flagCell(cells.promoted) ?? 0, game: idCell(cells.game), user_note: note });
    case 'listing.edit':
      return definedOf({ kind, asset_id, listing_id: idCell(cells.listing_id), price, promoted: flagCell(cells.promoted), user_note: editedNote });
    case 'listing.delete':
      return definedOf({ kind, asset_id });
    case 'listing.deleteAll': {
      const flag = flagCell(cells.active_only);
      if (flag === undefined) reasons.push('active_only: is required (1: active listings only, 0: all)');
      else if (flag !== 0 && flag !== 1) reasons.push('active_only: must be 0 or 1');
      return { kind, active_only: flag === 1 };
    }
    case 'buyOrder.create':
      return definedOf({ kind, account, sku, price, quantity, user_note: note });
    case 'buyOrder.edit':
      return definedOf({ kind, sku, price, quantity, active: flagCell(cells.active), user_note: editedNote });
    case 'buyOrder.delete':
      return definedOf({ kind, sku });
    case 'buyOrder.deleteAll':
      return { kind };
  }
}

/**
 * Edits and deletes name their row by asset or SKU; the ledger says whose it
 * is. A stated account or listing ID that disagrees means the file is about
 * something else, so it is refused rather than trusted.
 */
function ownerMismatch(input: ParsedChangeInput, account: string | undefined, ctx: ImportContext): string[] {
  const reasons: string[] = [];
  let owner: string | undefined;
  if (input.kind === 'listing.edit' || input.kind === 'listing.delete') {
    const row = input.asset_id !== undefined ? (ctx.ledger.listing(input.asset_id) ?? undefined) : undefined;
    owner = row?.account;
    if (input.kind === 'listing.edit' && row && input.listing_id !== undefined && row.listing_id !== input.listing_id) {
      reasons.push(`listing_id: the ledger has listing ${row.listing_id ?? '(unknown)'} for asset ${row.asset_id}`);
    }
  } else if (input.kind === 'buyOrder.edit' || input.kind === 'buyOrder.delete') {
    owner = ctx.ledger.buyOrder(input.sku)?.account;
  }
  if (account !== undefined && owner !== undefined && owner !== account) reasons.push(`account: the ledger has this on account ${owner}`);
  return reasons;
}

/** The draft target a row would write, for spotting two rows about one thing; null when the row names nothing. */
function duplicateKey(kind: ChangeKind, cells: Readonly<Record<string, string>>, ctx: ImportContext): { key: string; column: string; id: string } | null {
  const asset = idCell(cells.asset_id);
  const listingId = idCell(cells.listing_id);
  const sku = idCell(cells.sku);
  switch (kind) {
    case 'listing.create':
    case 'listing.edit': {
      const id = asset ?? (listingId === undefined ? undefined : ctx.ledger.listingById(listingId)?.asset_id);
      if (id !== undefined) return { key: listingKey(id), column: 'asset_id', id };
      return listingId === undefined ? null : { key: `L#${listingId}`, column: 'listing_id', id: listingId };
    }
    case 'listing.delete':
      return asset === undefined ? null : { key: listingDeleteKey(asset), column: 'asset_id', id: asset };
    case 'listing.deleteAll':
      return { key: LISTINGS_DELETE_ALL, column: 'kind', id: kind };
    case 'buyOrder.create':
    case 'buyOrder.edit':
      return sku === undefined ? null : { key: buyOrderKey(sku), column: 'sku', id: sku };
    case 'buyOrder.delete':
      return sku === undefined ? null : { key: buyOrderDeleteKey(sku), column: 'sku', id: sku };
    case 'buyOrder.deleteAll':
      return { key: BUY_ORDERS_DELETE_ALL, column: 'kind', id: kind };
  }
}
