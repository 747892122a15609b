import type { z } from 'zod';
import { sku as skuRule, userNote } from '../../../src-shared/fields.ts';
import { buyOrderInput, type BuyOrderRow } from '../store/buy-orders-repo.ts';
import { flagCell, idCell, issueReasons, numberCell, priceCell, textCell, DOLLARS, type PriceFormat } from './csv-cells.ts';
import { buyOrderLockReason, rowAccount, rowSku, type ImportContext } from './csv-context.ts';
import { COMMA_FILE, dollarsIn, duplicateTracker, echoed, writeCsv, type CsvColumns, type FileShape, type CsvLineError, type CsvRecord, type SeenKeys } from './csv-format.ts';

/**
 * The buy orders ledger as CSV. Importing adopts buy orders placed elsewhere
 * into the ledger, so the app can edit, pause and delete them. The service
 * names a buy order by its SKU alone, so the ledger holds one per SKU: a row
 * for a SKU the ledger has on another account is refused, not moved.
 * Prices are in dollars (`price_cents` of the previous version still
 * imports); a row may name its item (`name`) instead of giving its SKU.
 */
export const BUY_ORDER_COLUMNS: CsvColumns = {
  all: ['sku', 'name', 'account', 'price', 'quantity', 'active', 'user_note'],
  required: ['price', 'quantity'],
};

/** The buy orders as a file; `nameOf` names each row's item. */
export function buyOrdersToCsv(rows: Iterable<BuyOrderRow>, nameOf: (sku: string) => string = () => '', shape: FileShape = COMMA_FILE): string {
  const out = [];
  for (const r of rows) {
    out.push({ sku: r.sku, name: nameOf(r.sku), account: r.account, price: dollarsIn(shape, r.price), quantity: r.quantity, active: r.active, user_note: r.user_note });
  }
  return writeCsv(BUY_ORDER_COLUMNS.all, out, shape);
}

/** A buy order adopted from a file: the ledger's input with today's rules for what the trader wrote. */
const adoptedBuyOrder = buyOrderInput.extend({ sku: skuRule, user_note: userNote.default('') });
export type AdoptedBuyOrder = z.output<typeof adoptedBuyOrder>;

export interface BuyOrdersImport {
  readonly adopt: { readonly line: number; readonly row: AdoptedBuyOrder }[];
  readonly errors: CsvLineError[];
}

/**
 * Validates each row with the ledger's own input rule. An adopted order's
 * quantity is what the trader states, so it is no longer "may be cut"; fills
 * already counted for the same order are kept.
 */
export function readBuyOrdersImport(records: readonly CsvRecord[], ctx: ImportContext, prices: PriceFormat = DOLLARS, seenKeys: (what: string) => SeenKeys = () => duplicateTracker()): BuyOrdersImport {
  const result: BuyOrdersImport = { adopt: [], errors: [] };
  const seen = seenKeys('sku');
  for (const { line, cells } of records) {
    const reasons: string[] = [];
    const item = rowSku(cells, ctx);
    if (item.reason) reasons.push(item.reason);
    else if (item.sku === undefined) reasons.push('sku: is required (or an item name in the name column)');
    const sku = item.sku;
    const first = sku === undefined ? null : seen(sku, line);
    if (first !== null) reasons.push(`sku: ${echoed(sku ?? '')} is on line ${first} already`);
    const owner = rowAccount(idCell(cells.account), ctx);
    if (owner.reason) reasons.push(owner.reason);
    const existing = sku === undefined ? undefined : (ctx.ledger.buyOrder(sku) ?? undefined);
    const parsed = adoptedBuyOrder.safeParse({
      sku, account: owner.account, price: priceCell(cells, prices), quantity: numberCell(cells.quantity),
      active: flagCell(cells.active) ?? 1, user_note: textCell(cells.user_note) ?? '', quantity_may_be_cut: false,
      fills_seen: existing?.account === owner.account ? existing?.fills_seen : 0,
    });
    if (!parsed.success) {
      // A missing SKU is said once, above; a name that did not resolve is its reason.
      reasons.push(...issueReasons(parsed.error.issues.filter((i) => !(sku === undefined && i.path[0] === 'sku')), cells, prices));
    } else {
      if (existing && existing.account !== parsed.data.account) {
        reasons.push(`account: the ledger has the buy order for ${parsed.data.sku} on account ${existing.account}; delete it there first`);
      }
      const locked = buyOrderLockReason(parsed.data.sku, ctx);
      if (locked) reasons.push(locked);
    }
    if (reasons.length > 0) result.errors.push({ line, reason: reasons.join('; ') });
    else if (parsed.success) result.adopt.push({ line, row: parsed.data });
  }
  return result;
}
