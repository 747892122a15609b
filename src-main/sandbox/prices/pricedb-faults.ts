/**
 * Knobs of the simulated price source, each held until turned off (or until
 * its time, on the simulator's clock): an outage (every request answered
 * 503), a 429 storm (with or without a Retry-After of any length), a
 * malformed answer (a price whose field is not a number, or a body that is
 * not JSON, for the next `count` answers), and a jump (a SKU's price
 * multiplied, ×10 say, from a moment on).
 */
export interface PricedbFaults {
  outage: { until: number } | null;
  storm429: { until: number; retryAfterSec: number | null } | null;
  malformed: { count: number; kind: 'wrong_type' | 'not_json' | 'missing_field' } | null;
  jumps: Map<string, { factor: number; from: number }>;
}

export function noPricedbFaults(): PricedbFaults {
  return { outage: null, storm429: null, malformed: null, jumps: new Map() };
}
