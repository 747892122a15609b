import { createEmitter, type Unsubscribe } from '../events.ts';
import { createCostRepo, type CostLot, type CostRepo } from '../store/cost-repo.ts';
import type { Store } from '../store/db.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { countLine, inOrder, recount, type FifoDeps } from './fifo.ts';

/**
 * What each item cost, kept first in, first out per SKU (fifo.ts): the
 * completed purchases History records become lots, its completed sales take
 * from them, and the trader gives a cost by hand (in bulk, or by CSV) to
 * units the desk cannot know the cost of. Counting runs a part at a time
 * after each recording, so the watcher and the pages are answered between.
 */

/** Trades counted per transaction. */
export const COST_PART = 50;

/** A cost set by hand: `quantity` units of `sku` at `unitCost`, in since `acquiredAt` (0: before the desk's records, sold first). */
export interface ManualCost {
  readonly sku: string;
  readonly unitCost: number;
  readonly quantity: number;
  readonly acquiredAt?: number;
}

export interface NextCost {
  readonly unitCost: number;
  readonly acquiredAt: number;
  readonly origin: 'purchase' | 'manual';
}

export interface CostLedger {
  readonly repo: CostRepo;
  /** Counts the completed trades not counted yet, a part at a time; resolves with how many. Calls queue behind each other. */
  sync(): Promise<number>;
  /** What a sale of each SKU would cost next: the oldest lot with units left. */
  nextCosts(skus: readonly string[]): Map<string, NextCost>;
  /** Units the lots still hold, per SKU. */
  heldUnits(skus: readonly string[]): Map<string, number>;
  lots(sku: string): CostLot[];
  /** The trader's costs: each SKU named has its hand-set lots replaced by these (a quantity of 0 clears them), and is counted again. */
  setManual(costs: readonly ManualCost[]): number;
  /** Moves whenever a cost was counted or set. */
  version(): number;
  on(event: 'changed', listener: () => void): Unsubscribe;
}

export function createCostLedger(deps: {
  store: Store;
  /** The source's sell price of a SKU now (kept with each sale); none without pricing. */
  sourcePrice?: (sku: string) => number | null;
  turn?: Turn;
}): CostLedger {
  const { store } = deps;
  const repo = createCostRepo(store);
  const turn = deps.turn ?? nextTurn;
  const fifo: FifoDeps = { repo, sourcePrice: deps.sourcePrice ?? (() => null), now: () => store.clock.now() };
  const emitter = createEmitter<{ changed: undefined }>();
  let version = 0;
  const changed = () => {
    version += 1;
    emitter.emit('changed', undefined);
  };

  /** One part: up to COST_PART trades counted in one transaction; false once none is left. */
  function step(): number {
    return store.transaction(() => {
      const { trades, lines } = repo.uncosted(COST_PART);
      if (trades.length === 0) return 0;
      const again = new Set<string>();
      for (const line of lines) {
        if (again.has(line.sku) || !inOrder(repo, line)) {
          again.add(line.sku);
          if (line.side === 'purchase') repo.addPurchaseLot(line, fifo.now());
          continue;
        }
        countLine(fifo, line);
      }
      repo.markCosted(trades);
      for (const sku of again) recount(fifo, sku);
      return trades.length;
    });
  }

  let queue: Promise<number> = Promise.resolve(0);
  return {
    repo,
    sync() {
      const run = queue.then(async () => {
        let total = 0;
        for (;;) {
          const n = step();
          total += n;
          if (n < COST_PART) break;
          await turn();
        }
        if (total > 0) changed();
        return total;
      });
      queue = run.catch(() => 0);
      return run;
    },
    nextCosts: (skus) => repo.nextCosts(skus),
    heldUnits: (skus) => repo.heldUnits(skus),
    lots: (sku) => repo.lots(sku),
    setManual(costs) {
      const bySku = new Map<string, ManualCost[]>();
      for (const c of costs) bySku.set(c.sku, [...(bySku.get(c.sku) ?? []), c]);
      store.transaction(() => {
        for (const [sku, list] of bySku) {
          const lots = list.filter((c) => c.quantity > 0).map((c) => ({ quantity: c.quantity, unitCost: c.unitCost, acquiredAt: c.acquiredAt ?? 0 }));
          repo.replaceManual(sku, lots, store.clock.now());
          recount(fifo, sku);
        }
      });
      if (bySku.size > 0) changed();
      return bySku.size;
    },
    version: () => version,
    on: (event, listener) => emitter.on(event, () => listener()),
  };
}
