import type { PriceStep, Rounding } from './drafts.ts';

/**
 * `price * percent / 100`, rounded to the grid of `step` (default: every
 * cent) in the direction asked. Exact integer arithmetic (BigInt): a float
 * would turn 1.15 * 100 into 114.99999.
 */
export function scalePrice(price: number, percent: number, mode: Rounding, step: PriceStep = { size: 1, offset: 0 }): number {
  // percent with up to 4 decimals, as a fraction over 1,000,000.
  const num = BigInt(Math.round(percent * 10_000)) * BigInt(price);
  const den = 1_000_000n;
  const size = BigInt(step.size) * den;
  const y = num - BigInt(step.offset) * den;
  const k = floorDiv(y, size);
  const remainder = y - k * size;
  const down = k * BigInt(step.size) + BigInt(step.offset);
  const up = remainder === 0n ? down : down + BigInt(step.size);
  const chosen = mode === 'down' ? down : mode === 'up' ? up : 2n * remainder >= size ? up : down;
  return Number(chosen);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}
