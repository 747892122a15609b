/**
 * The number of single-character edits (insert, delete, replace, or swap of
 * two neighbours) that turn `a` into `b`, or `max + 1` as soon as it is
 * known to be more than `max`. Only a band of `2 × max + 1` cells a row is
 * filled, so a bound of 2 or 3 costs a few dozen steps a name.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  const over = max + 1;
  // Three rows (two back for a swap), each over b's length, the band's outside read as "too far".
  let before = new Array<number>(width).fill(over);
  let previous = Array.from({ length: width }, (_, j) => (j <= max ? j : over));
  let current = new Array<number>(width).fill(over);
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    current.fill(over);
    current[0] = i <= max ? i : over;
    let best = current[0] ?? over;
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? over) + 1, (current[j - 1] ?? over) + 1, (previous[j - 1] ?? over) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (before[j - 2] ?? over) + 1);
      const cell = Math.min(d, over);
      current[j] = cell;
      if (cell < best) best = cell;
    }
    if (best > max) return over;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] ?? over, over);
}
