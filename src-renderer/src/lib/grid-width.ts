/**
 * The narrowest a CSS grid-template-columns list can be laid out: the sum of
 * each track's minimum in px ("100px" → 100, "minmax(230px, 5fr)" → 230,
 * "1fr" → 0). Below it a table scrolls sideways instead of cutting columns.
 */
export function gridMinWidth(columns: string): number {
  let total = 0;
  for (const track of tracks(columns)) {
    const first = /^(?:minmax\(\s*)?(\d+(?:\.\d+)?)px/.exec(track);
    if (first?.[1] !== undefined) total += Number(first[1]);
  }
  return total;
}

/** The top-level tracks of a column list (spaces inside minmax(…) do not split). */
function tracks(columns: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of columns.trim()) {
    if (c === '(') depth += 1;
    if (c === ')') depth -= 1;
    if (c === ' ' && depth === 0) {
      if (current !== '') out.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  if (current !== '') out.push(current);
  return out;
}
