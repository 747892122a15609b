import type { PriceStep, Rounding } from './drafts.ts';

/**
 * `price * percent / 100`, rounded to the grid of `step` (default: every
 * cent) in the direction asked, exactly: the percentage to four decimals,
 * as a fraction over 1,000,000. A float would turn 1.15 * 100 into
 * 114.99999. Integer doubles are exact below 2^53, which covers any real
 * price, so that is the path a bulk edit over 50,000 rows takes; beyond it
 * (or for a price that is not an integer) it is done in BigInt.
 */
export function scalePrice(price: number, percent: number, mode: Rounding, step: PriceStep = { size: 1, offset: 0 }): number {
  const num = Math.round(percent * 10_000) * price;
  const size = step.size * 1_000_000;
  const shift = step.offset * 1_000_000;
  const exact = Number.isSafeInteger(num) && Number.isSafeInteger(Math.abs(num) + Math.abs(shift) + 2 * size);
  if (!exact) return scaleBig(price, percent, mode, step);
  const y = num - shift;
  const r = y % size;
  const remainder = r < 0 ? r + size : r;
  const k = (y - remainder) / size;
  const down = k * step.size + step.offset;
  const up = remainder === 0 ? down : down + step.size;
  return mode === 'down' ? down : mode === 'up' ? up : 2 * remainder >= size ? up : down;
}

function scaleBig(price: number, percent: number, mode: Rounding, step: PriceStep): number {
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
