/**
 * A small seeded PRNG and integer hashing, so every piece of sandbox data
 * (accounts, inventory, trades, fills, fault dice) is reproducible from one seed.
 * `Math.random` is never used: a test that fails must fail the same way again.
 */

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: tiny, fast, and good enough for simulation data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Mixes a seed with a path of integers into a new 32-bit seed. Deriving one
 * stream per thing (trade #k, buy order #n) keeps each thing's data independent
 * of how many other things were generated before it.
 */
export function deriveSeed(seed: number, ...parts: readonly number[]): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h;
}

/** A random stream for one derived path. */
export function streamFor(seed: number, ...parts: readonly number[]): Random {
  return createRandom(deriveSeed(seed, ...parts));
}

/** An integer in [min, max], both inclusive. */
export function intBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, list: readonly T[]): T {
  const value = list[Math.floor(random() * list.length)];
  if (value === undefined) throw new RangeError('pick from an empty list');
  return value;
}

/** Lowercase hex of `length` characters. */
export function hexString(random: Random, length: number): string {
  let out = '';
  while (out.length < length) out += Math.floor(random() * 16).toString(16);
  return out;
}
