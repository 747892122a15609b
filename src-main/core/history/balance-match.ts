/**
 * Which trades a move of the balance pays for. The service says nothing of
 * how a trade ended; the balance does: between two readings it moved by the
 * sum of what the trades completed meanwhile paid in (sales) and out
 * (purchases). Pure, so the rule is tested on its own.
 */

/** Above this many candidates only single trades and all of them together are tried (2^n grows fast). */
const EXHAUSTIVE_MAX = 14;

/**
 * The indexes of `effects` whose sum is `delta`, or null when none add up.
 * Among several answers the one with the fewest trades wins (a coincidence
 * of many small amounts is less likely than one trade), then the earliest.
 */
export function matchBalanceMove(effects: readonly number[], delta: number): number[] | null {
  if (delta === 0 || effects.length === 0) return null;
  const single = effects.indexOf(delta);
  if (single >= 0) return [single];
  if (effects.length > EXHAUSTIVE_MAX) {
    return effects.reduce((a, b) => a + b, 0) === delta ? effects.map((_, i) => i) : null;
  }
  let best: number[] | null = null;
  const n = effects.length;
  for (let mask = 1; mask < 1 << n; mask++) {
    let sum = 0;
    let size = 0;
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) {
        sum += effects[i] ?? 0;
        size += 1;
      }
    }
    if (sum !== delta || (best !== null && size >= best.length)) continue;
    best = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) best.push(i);
  }
  return best;
}

/**
 * The indexes of `effects` that belong to some group summing to nothing
 * (+308 −392 +84): trades the balance cannot tell gone through from not.
 * Every group is tried up to EXHAUSTIVE_MAX trades; above, pairs only.
 */
export function cancellingTrades(effects: readonly number[]): Set<number> {
  const out = new Set<number>();
  const n = effects.length;
  if (n > EXHAUSTIVE_MAX) {
    const counts = new Map<number, number>();
    for (const e of effects) counts.set(e, (counts.get(e) ?? 0) + 1);
    // A trade of amount 0 cancels alone; another needs its opposite.
    effects.forEach((e, i) => {
      if (e === 0 || (counts.get(-e) ?? 0) > 0) out.add(i);
    });
    return out;
  }
  for (let mask = 1; mask < 1 << n; mask++) {
    let sum = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) sum += effects[i] ?? 0;
    if (sum !== 0) continue;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) out.add(i);
  }
  return out;
}
