/**
 * The service's clock as seen from the desk's. The desk plans from durations
 * on its own clock; the service's absolute times (`refresh_at`,
 * `X-RateLimit-Reset`) are only compared after correcting by the offset its
 * `Date` header shows, and a desk clock far off the service's is shown to the
 * trader. The header has whole seconds, so one reading pins the offset to
 * within a second plus the round trip; the tightest recent reading wins.
 */
export interface ServiceClock {
  /**
   * Notes one response: its `Date` (ms, as parsed), when the request was sent
   * and when the answer came, both on the desk's clock.
   */
  observe(dateMs: number, sentAt: number, receivedAt: number): void;
  /** Service clock minus desk clock, ms; null before any response carried a `Date`. */
  offsetMs(): number | null;
  /** The interval the offset surely lies in, from the tightest recent reading; null before one. */
  offsetRange(): { low: number; high: number } | null;
}

/** Readings kept: enough to ride out one slow answer, few enough to follow a clock that was set. */
const KEPT = 8;

/** The interval the offset lies in: its width is the round trip plus the second the header rounds away. */
interface Reading {
  low: number;
  high: number;
}

export function createServiceClock(): ServiceClock {
  const readings: Reading[] = [];
  return {
    observe(dateMs, sentAt, receivedAt) {
      if (!Number.isFinite(dateMs) || receivedAt < sentAt) return;
      // The service stamped the header somewhere in [sentAt, receivedAt] of ours, as a time in
      // [dateMs, dateMs + 1 s) of its own: the offset lies in [dateMs − receivedAt, dateMs + 1 s − sentAt].
      readings.push({ low: dateMs - receivedAt, high: dateMs + 1_000 - sentAt });
      if (readings.length > KEPT) readings.shift();
    },
    offsetRange() {
      let best: Reading | null = null;
      for (const r of readings) if (best === null || r.high - r.low <= best.high - best.low) best = r;
      return best === null ? null : { ...best };
    },
    offsetMs() {
      const range = this.offsetRange();
      return range === null ? null : Math.round((range.low + range.high) / 2);
    },
  };
}

/** The `Date` header in ms, or undefined when absent or not a date. */
export function parseDateHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
