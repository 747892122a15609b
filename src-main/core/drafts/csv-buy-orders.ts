import type { z } from 'zod';
import { sku as skuRule, userNote } from '../../../src-shared/fields.ts';
import { buyOrderInput, type BuyOrderRow } from '../store/buy-orders-repo.ts';
import { buyOrderLockReason, rowAccount, type ImportContext } from './csv-context.ts';
import {
  duplicateTracker, flagCell, idCell, issueReasons, numberCell, textCell, writeCsv,
  type CsvColumns, type CsvLineError, type CsvRecord,
} from './csv-format.ts';

/**
 * The buy orders ledger as CSV. Importing adopts buy orders placed elsewhere
 * into the ledger, so the app can edit, pause and delete them. The service
 * names a buy order by its SKU alone, so the ledger holds one per SKU: a row
 * for a SKU the ledger has on another account is refused, not moved.
 */
export const BUY_ORDER_COLUMNS: CsvColumns = {
  all: ['sku', 'account', 'price_cents', 'quantity', 'active', 'user_note'],
  required: ['sku', 'price_cents', 'quantity'],
};

export function buyOrdersToCsv(rows: Iterable<BuyOrderRow>): string {
  const out = [];
  for (const r of rows) {
    out.push({ sku: r.sku, account: r.account, price_cents: r.price, quantity: r.quantity, active: r.active, user_note: r.user_note });
  }
  return writeCsv(BUY_ORDER_COLUMNS.all, out);
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
export function readBuyOrdersImport(records: readonly CsvRecord[], ctx: ImportContext): BuyOrdersImport {
  const result: BuyOrdersImport = { adopt: [], errors: [] };
  const seen = duplicateTracker();
  for (const { line, cells } of records) {
    const reasons: string[] = [];
    const sku = idCell(cells.sku);
    const first = sku === undefined ? null : seen(sku, line);
    if (first !== null) reasons.push(`sku: ${sku} is on line ${first} already`);
    const owner = rowAccount(idCell(cells.account), ctx);
    if (owner.reason) reasons.push(owner.reason);
    const existing = sku === undefined ? undefined : ctx.ledger.buyOrders.get(sku);
    const parsed = adoptedBuyOrder.safeParse({
      sku, account: owner.account, price: numberCell(cells.price_cents), quantity: numberCell(cells.quantity),
      active: flagCell(cells.active) ?? 1, user_note: textCell(cells.user_note) ?? '', quantity_may_be_cut: false,
      fills_seen: existing?.account === owner.account ? existing?.fills_seen : 0,
    });
    if (!parsed.success) {
      reasons.push(...issueReasons(parsed.error.issues, cells));
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
