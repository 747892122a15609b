import type { Clock } from '../../core/clock.ts';
import { answerFor, simCost, simPrice, SIM_KEY_CENTS, SIM_KEY_REFINED, type SimPrice } from './price-model.ts';
import { noPricedbFaults, type PricedbFaults } from './pricedb-faults.ts';
import { PRICEDB_PREFIX, type PricedbLog } from './pricedb-server.ts';

/**
 * The simulated price source as tests and the app's sandbox reach it: its
 * address, its knobs, what it answered, and its own truth (the price of a
 * SKU at a moment, what the simulated trader paid for an item).
 */
export interface SandboxPricedb {
  /** `http://127.0.0.1:<port>/pricedb/api`: a pricedb source's URL. */
  readonly url: string;
  readonly faults: PricedbFaults;
  readonly log: PricedbLog;
  /** The key's worth the simulated market prices in (cents, and refined for each side). */
  readonly key: { readonly cents: number; readonly refined: { readonly buy: number; readonly sell: number } };
  /** The SKU's price now (or at `at`), as the source has it, in cents. */
  price(sku: string, at?: number): SimPrice;
  /** The answer the source gives for a SKU now (keys and metal), null for one it does not price. */
  answer(sku: string, at?: number): ReturnType<typeof answerFor>;
  /** What the simulated trader paid for an item of this SKU. */
  cost(sku: string): number;
}

export interface PricedbState {
  readonly seed: number;
  readonly clock: Clock;
  readonly faults: PricedbFaults;
  readonly log: PricedbLog;
  /** When each request of the last minute came (its own rate limit). */
  readonly sent: number[];
}

export function createPricedbState(seed: number, clock: Clock): PricedbState {
  return { seed, clock, faults: noPricedbFaults(), log: { requests: [] }, sent: [] };
}

export function sandboxPricedb(state: PricedbState, baseUrl: string): SandboxPricedb {
  const jump = (sku: string, at: number) => {
    const j = state.faults.jumps.get(sku);
    return j !== undefined && at >= j.from ? j.factor : 1;
  };
  return {
    url: `${baseUrl}${PRICEDB_PREFIX}`,
    faults: state.faults,
    log: state.log,
    key: { cents: SIM_KEY_CENTS, refined: SIM_KEY_REFINED },
    price: (sku, at = state.clock.now()) => simPrice(state.seed, sku, at, jump(sku, at)),
    answer: (sku, at = state.clock.now()) => answerFor(state.seed, sku, at, jump(sku, at)),
    cost: (sku) => simCost(state.seed, sku),
  };
}
