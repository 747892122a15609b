import type { CostRepo, TradeLine } from '../store/cost-repo.ts';

/**
 * First in, first out per SKU: a purchase line is a lot of units at its
 * unit price; a sale takes its units from the oldest lots of its SKU that
 * were in by then (lots set by hand for units from before the desk's records
 * come first), and what no lot holds any more is sold at a cost unknown.
 * Lines are counted in one order everywhere: by time, purchases before sales
 * at the same moment, then by trade and line. A line that comes in before
 * what is counted already (a trade whose ending was decided late) has its
 * SKU counted again from the start.
 */

export interface FifoDeps {
  readonly repo: CostRepo;
  /** The source's price of a SKU now, kept with each sale counted (null: none known). */
  sourcePrice(sku: string): number | null;
  now(): number;
}

/** Whether counting `line` now keeps the order: nothing of its SKU counted after it. */
export function inOrder(repo: Pick<CostRepo, 'lastUse' | 'soldSince'>, line: TradeLine): boolean {
  if (line.side === 'purchase') return !repo.soldSince(line.sku, line.at);
  const last = repo.lastUse(line.sku);
  if (last === null || last.sold_at < line.at) return true;
  if (last.sold_at > line.at) return false;
  // The same moment: a later trade in the order, or this trade's own earlier lines.
  return [last.trade_type, last.trade_id].join('\u0000') <= [line.trade_type, line.trade_id].join('\u0000');
}

/** Counts one line: a purchase becomes a lot, a sale takes from the lots. */
export function countLine(deps: FifoDeps, line: TradeLine, sourcePrice: number | null = deps.sourcePrice(line.sku)): void {
  const { repo } = deps;
  if (line.side === 'purchase') {
    repo.addPurchaseLot(line, deps.now());
    return;
  }
  let left = line.quantity;
  let part = 0;
  for (const lot of repo.openLots(line.sku, line.at)) {
    if (left === 0) break;
    const n = Math.min(left, lot.quantity - lot.used);
    repo.use(lot.lot_id, n);
    repo.addUse({ line, part, quantity: n, lotId: lot.lot_id, unitCost: lot.unit_cost, sourcePrice });
    part += 1;
    left -= n;
  }
  if (left > 0) repo.addUse({ line, part, quantity: left, lotId: null, unitCost: null, sourcePrice });
}

/** Counts a SKU again from its first line (its sales keep the source price they were counted with). */
export function recount(deps: FifoDeps, sku: string): void {
  const { repo } = deps;
  const kept = repo.sourcePricesOf(sku);
  repo.resetSku(sku);
  for (const line of repo.linesOf(sku)) {
    if (line.side === 'purchase') repo.addPurchaseLot(line, deps.now());
    else countLine(deps, line, kept.get(`${line.trade_type}|${line.trade_id}|${line.position}`) ?? deps.sourcePrice(sku));
  }
}
