import type { EndpointName } from '../core/api/endpoints.ts';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, RATE_WINDOW_MS } from '../core/api/endpoints.ts';

/**
 * The service's rate limits (section 8): a global budget per API key shared by
 * every endpoint, plus each endpoint's own. Time is whatever the caller passes
 * (the sandbox clock), so a scaled clock shrinks the minute.
 */

export type RateWindowMode = 'sliding' | 'fixed';

/** What the X-RateLimit-* headers say: the limit that binds (fewest requests left). */
export interface RateStatus {
  readonly limit: number;
  readonly remaining: number;
  /** Unix seconds (sandbox clock) when that limit next frees a slot. */
  readonly resetSec: number;
  /** Which limit the numbers describe: 'global' or the endpoint's name. */
  readonly scope: 'global' | EndpointName;
}

export interface RateDecision {
  readonly allowed: boolean;
  /** Whole seconds to wait, at least 1; set when refused. */
  readonly retryAfterSec?: number;
  readonly status: RateStatus;
}

interface Window {
  used(now: number): number;
  add(now: number): void;
  /** Sandbox ms when the next slot frees up. */
  nextFree(now: number): number;
}

/** A request occupies a slot for exactly the window after it was counted. */
class SlidingWindow implements Window {
  private readonly stamps: number[] = [];
  private head = 0;
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  used(now: number): number {
    while (this.head < this.stamps.length && (this.stamps[this.head] ?? 0) <= now - this.size) this.head++;
    if (this.head > 1024 && this.head * 2 > this.stamps.length) {
      this.stamps.splice(0, this.head);
      this.head = 0;
    }
    return this.stamps.length - this.head;
  }

  add(now: number): void {
    this.stamps.push(now);
  }

  nextFree(now: number): number {
    this.used(now);
    const oldest = this.stamps[this.head];
    // Empty: a request counted now would free its slot a full window later.
    return oldest === undefined ? now + this.size : oldest + this.size;
  }
}

/** Counts reset at each multiple of the window on the clock (minute boundaries). */
class FixedWindow implements Window {
  private start = -Infinity;
  private count = 0;
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  used(now: number): number {
    const start = Math.floor(now / this.size) * this.size;
    if (start !== this.start) {
      this.start = start;
      this.count = 0;
    }
    return this.count;
  }

  add(now: number): void {
    this.used(now);
    this.count++;
  }

  nextFree(now: number): number {
    this.used(now);
    return this.start + this.size;
  }
}

interface KeyBuckets {
  readonly global: Window;
  readonly endpoints: Map<EndpointName, Window>;
}

export class RateLimiter {
  private readonly buckets = new Map<string, KeyBuckets>();
  private readonly mode: RateWindowMode;
  private readonly windowMs: number;

  constructor(mode: RateWindowMode = 'sliding', windowMs: number = RATE_WINDOW_MS) {
    this.mode = mode;
    this.windowMs = windowMs;
  }

  /**
   * Checks the global limit and, for a known endpoint, its own; counts the
   * request only when it is allowed and `count` is set (a 429 never counts).
   */
  take(keyId: string, endpoint: EndpointName | null, now: number, count = true): RateDecision {
    const buckets = this.bucketsFor(keyId);
    const checks: Array<{ scope: 'global' | EndpointName; limit: number; window: Window }> = [
      { scope: 'global', limit: GLOBAL_LIMIT_PER_MINUTE, window: buckets.global },
    ];
    if (endpoint !== null) {
      let window = buckets.endpoints.get(endpoint);
      if (!window) buckets.endpoints.set(endpoint, (window = this.newWindow()));
      checks.push({ scope: endpoint, limit: ENDPOINTS[endpoint].perMinute, window });
    }
    const exceeded = checks.filter((c) => c.window.used(now) >= c.limit);
    if (exceeded.length > 0) {
      const waitMs = Math.max(...exceeded.map((c) => c.window.nextFree(now) - now));
      return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(waitMs / 1000)), status: this.statusOf(checks, now) };
    }
    if (count) for (const c of checks) c.window.add(now);
    return { allowed: true, status: this.statusOf(checks, now) };
  }

  /** The headers' view without counting anything (for refused keys and faults). */
  peek(keyId: string, endpoint: EndpointName | null, now: number): RateStatus {
    return this.take(keyId, endpoint, now, false).status;
  }

  private statusOf(checks: ReadonlyArray<{ scope: 'global' | EndpointName; limit: number; window: Window }>, now: number): RateStatus {
    let best: RateStatus | null = null;
    for (const c of checks) {
      const remaining = Math.max(0, c.limit - c.window.used(now));
      const status = { limit: c.limit, remaining, resetSec: Math.ceil(c.window.nextFree(now) / 1000), scope: c.scope };
      // The endpoint's limit is listed after the global one: on a tie it wins, being the smaller.
      if (best === null || remaining <= best.remaining) best = status;
    }
    if (best === null) throw new Error('no rate limit checked');
    return best;
  }

  private bucketsFor(keyId: string): KeyBuckets {
    let buckets = this.buckets.get(keyId);
    if (!buckets) this.buckets.set(keyId, (buckets = { global: this.newWindow(), endpoints: new Map() }));
    return buckets;
  }

  private newWindow(): Window {
    return this.mode === 'fixed' ? new FixedWindow(this.windowMs) : new SlidingWindow(this.windowMs);
  }
}
