import { systemClock, type Clock } from '../clock.ts';

/**
 * The service's clock as seen from the desk. The desk plans from durations on
 * its monotonic clock; the service's absolute times (`refresh_at`) become
 * instants of that clock through the offset its `Date` header shows, so a
 * desk wall clock that steps moves nothing. The offset to the desk's wall
 * clock is only for showing the trader a desk clock far off. The header has
 * whole seconds, so one reading pins the offset to within a second plus the
 * round trip; the tightest recent reading wins.
 */
export interface ServiceClock {
  /**
   * Notes one response: its `Date` (ms, as parsed), when the request was sent
   * and when the answer came, both on the desk's monotonic clock.
   */
  observe(dateMs: number, sentAt: number, receivedAt: number): void;
  /** Service clock minus the desk's wall clock now, ms; null before any response carried a `Date`. */
  offsetMs(): number | null;
  /**
   * The interval the service clock minus the desk's monotonic clock surely
   * lies in, from the tightest recent reading; null before one.
   */
  offsetRange(): { low: number; high: number } | null;
}

/** Readings kept: enough to ride out one slow answer, few enough to follow a clock that moved. */
const KEPT = 8;

/** The interval the offset lies in: its width is the round trip plus the second the header rounds away. */
interface Reading {
  low: number;
  high: number;
}

export function createServiceClock(clock: Clock = systemClock): ServiceClock {
  let readings: Reading[] = [];
  return {
    observe(dateMs, sentAt, receivedAt) {
      if (!Number.isFinite(dateMs) || receivedAt < sentAt) return;
      // The service stamped the header somewhere in [sentAt, receivedAt] of ours, as a time in
      // [dateMs, dateMs + 1 s) of its own: the offset lies in [dateMs − receivedAt, dateMs + 1 s − sentAt].
      const reading = { low: dateMs - receivedAt, high: dateMs + 1_000 - sentAt };
      // Every true reading holds the true offset, so two that do not overlap cannot both be true: the
      // older one is from before a clock moved (the service's was set, or the desk slept).
      readings = readings.filter((r) => r.low <= reading.high && reading.low <= r.high);
      readings.push(reading);
      if (readings.length > KEPT) readings.shift();
    },
    offsetRange() {
      let best: Reading | null = null;
      for (const r of readings) if (best === null || r.high - r.low <= best.high - best.low) best = r;
      return best === null ? null : { ...best };
    },
    offsetMs() {
      const range = this.offsetRange();
      if (range === null) return null;
      return Math.round((range.low + range.high) / 2 - (clock.now() - clock.monotonic()));
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
