/**
 * The Listings pages both shells' benchmarks ask for, one at a time: pages of
 * 100 rows spread across the whole ledger (a prime stride, so neighbouring
 * samples are far apart and no page is served from the one before).
 */
export const PAGE_ROWS = 100;

export function pageOffsets(listings: number, samples: number): number[] {
  const pages = Math.max(1, Math.floor(listings / PAGE_ROWS));
  return Array.from({ length: samples }, (_, i) => ((i * 7_919) % pages) * PAGE_ROWS);
}

/** The value at or below which `p` per cent of the samples fall (nearest rank). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}
