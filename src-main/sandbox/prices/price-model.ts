import { KEY_SKU } from '../../../src-shared/pricing.ts';
import { ITEM_KINDS, KILLSTREAK_FACTOR, QUALITY_FACTOR, WEAR_FACTOR } from '../catalog/catalog-items.ts';
import { deriveSeed } from '../catalog/prng.ts';

/**
 * The market the simulated price source reports: every SKU has a value in
 * cents drawn from the catalog's own prices (its kind, quality, killstreak,
 * australium, wear, ...) and the seed, which drifts over simulated time
 * (a slow wave of up to ±12 %, each SKU its own period and phase). Prices
 * are taken on the hour, as a pricer updates them now and then, and told in
 * keys and refined metal at the simulator's key price, as pricedb.io does.
 */

/** What a key sells for on the simulated market, in cents and in refined metal. */
export const SIM_KEY_CENTS = 180;
export const SIM_KEY_REFINED = { buy: 60.11, sell: 60.66 } as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Buy orders pay this share of the sell price. */
const BUY_SHARE = 0.88;
const DRIFT = 0.12;

export interface SimPrice {
  readonly sku: string;
  /** In cents, the truth the keys and metal approximate. */
  readonly buyCents: number;
  readonly sellCents: number;
  /** When it was priced (ms). */
  readonly pricedAt: number;
}

/** A number in [0, 1) from the seed and a SKU, for each of a SKU's traits. */
function unit(seed: number, sku: string, trait: number): number {
  let h = 0;
  for (let i = 0; i < sku.length; i++) h = (h * 31 + sku.charCodeAt(i)) >>> 0;
  return deriveSeed(seed, h, trait) / 2 ** 32;
}

/** The SKU's value before any drift. */
export function baseCents(seed: number, sku: string): number {
  if (sku === KEY_SKU) return SIM_KEY_CENTS;
  const [defindexText, qualityText, ...parts] = sku.split(';');
  const kind = ITEM_KINDS.find((k) => k.defindex === Number(defindexText));
  const quality = Number(qualityText);
  const killstreak = Number(parts.find((p) => p.startsWith('kt-'))?.slice(3) ?? 0) as 0 | 1 | 2 | 3;
  const wear = Number(parts.find((p) => /^w\d$/.test(p))?.slice(1) ?? 0) as 0 | 1 | 2 | 3 | 4 | 5;
  const factor = (QUALITY_FACTOR[quality] ?? 1) * (KILLSTREAK_FACTOR[killstreak] ?? 1) * (parts.includes('australium') ? 40 : 1)
    * (parts.includes('festive') ? 1.5 : 1) * (parts.includes('uncraftable') ? 0.7 : 1) * (parts.includes('strange') && quality !== 11 ? 1.5 : 1)
    * (WEAR_FACTOR[wear] ?? 1);
  return Math.max(5, Math.round((kind?.basePrice ?? 300) * factor * (0.8 + 0.4 * unit(seed, sku, 1))));
}

/** The SKU's price as the source has it at `at`: priced on the last hour, drifted from its base. */
export function simPrice(seed: number, sku: string, at: number, jump = 1): SimPrice {
  const pricedAt = Math.floor(at / HOUR) * HOUR;
  const base = baseCents(seed, sku);
  const period = (3 + 4 * unit(seed, sku, 2)) * DAY;
  const phase = 2 * Math.PI * unit(seed, sku, 3);
  const wave = sku === KEY_SKU ? 0 : DRIFT * Math.sin((2 * Math.PI * pricedAt) / period + phase);
  const sellCents = Math.max(3, Math.round(base * (1 + wave) * jump));
  return { sku, sellCents, buyCents: Math.max(2, Math.round(sellCents * BUY_SHARE)), pricedAt };
}

/** Cents as keys and refined metal at the key's price, metal to the scrap (0.11 ref), as the source tells it. */
export function asKeysAndMetal(cents: number, refinedPerKey: number): { keys: number; metal: number } {
  const keys = Math.floor(cents / SIM_KEY_CENTS);
  const scraps = Math.round(((cents - keys * SIM_KEY_CENTS) * 9 * refinedPerKey) / SIM_KEY_CENTS);
  return { keys, metal: Math.floor(scraps / 9) + Math.round((scraps % 9) * 11) / 100 };
}

/** What the simulated source answers for a SKU (null for a SKU it does not price). */
export function answerFor(seed: number, sku: string, at: number, jump = 1) {
  if (!/^\d{1,9};\d{1,4}(;[a-z0-9-]{1,24})*$/.test(sku)) return null;
  if (sku === KEY_SKU) {
    return { sku, name: 'Mann Co. Supply Crate Key', source: 'sandbox', time: Math.floor(at / HOUR) * 3_600, buy: { keys: 0, metal: SIM_KEY_REFINED.buy }, sell: { keys: 0, metal: SIM_KEY_REFINED.sell } };
  }
  const p = simPrice(seed, sku, at, jump);
  return {
    sku, source: 'sandbox', time: Math.floor(p.pricedAt / 1000),
    buy: asKeysAndMetal(p.buyCents, SIM_KEY_REFINED.buy),
    sell: asKeysAndMetal(p.sellCents, SIM_KEY_REFINED.sell),
  };
}

/** What the simulated trader paid for an item of this SKU (70 % to 100 % of its base): the costs the simulator knows. */
export function simCost(seed: number, sku: string): number {
  return Math.max(1, Math.round(baseCents(seed, sku) * (0.7 + 0.3 * unit(seed, sku, 4))));
}
