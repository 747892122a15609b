import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import { lazyPool, type LazyPool } from '../api/transport.ts';
import type { AlertEnvelope } from './alert.ts';
import { postAlert, type PostOutcome, type PostRequest } from './webhook-post.ts';

/**
 * Sends alerts to webhooks without ever holding up the desk: `enqueue`
 * returns at once, and each webhook has a queue of its own, bounded, sent
 * one alert at a time in order by a loop nobody awaits. A receiver's 429 is
 * honoured for the whole queue (Discord limits per webhook), its wait bounded
 * like the service's; no answer, a dropped connection or a 5xx is tried again
 * after a growing pause, a few times, then given up and said; another 4xx
 * is given up at once. Every wait is on the desk's monotonic clock.
 */

export interface PreparedPost extends PostRequest {
  /** The URL's origin: one connection pool each. */
  readonly origin: string;
  readonly clean: (text: string) => string;
}

/** The request for an alert at this try (signed afresh each time), or null when its webhook is gone. */
export type PreparePost = (webhookId: string, envelope: AlertEnvelope) => Promise<PreparedPost | null>;

export type SendNews =
  | { readonly what: 'delivered'; readonly webhookId: string; readonly envelope: AlertEnvelope; readonly tries: number; readonly outcome: PostOutcome }
  | { readonly what: 'retrying'; readonly webhookId: string; readonly envelope: AlertEnvelope; readonly tries: number; readonly waitMs: number; readonly outcome: PostOutcome }
  /** `status`: the receiver's last answer; null when nothing answered. */
  | { readonly what: 'gave_up'; readonly webhookId: string; readonly envelope: AlertEnvelope; readonly tries: number; readonly why: string; readonly status: number | null }
  /** The queue was full: the oldest waiting alert made room. */
  | { readonly what: 'dropped'; readonly webhookId: string; readonly envelope: AlertEnvelope };

export interface SenderOptions {
  readonly clock: Clock;
  readonly prepare: PreparePost;
  /** Longest a receiver may take to answer one POST; default 10 s. */
  readonly timeoutMs?: number;
  /** Tries of an alert that gets no answer or a 5xx; default 5. */
  readonly maxTries?: number;
  /** 429s one alert may meet before it is given up; default 5. */
  readonly maxRateWaits?: number;
  /** Alerts waiting per webhook; default 50. */
  readonly queueMax?: number;
  /** The first pause after a failed try, doubled each time; default 2 s. */
  readonly backoffMs?: number;
  readonly random?: () => number;
  /** A connection pool to an origin; default undici's, as the service's client. */
  readonly poolFor?: (origin: string, timeoutMs: number) => LazyPool;
}

export interface AlertSender {
  enqueue(webhookId: string, envelope: AlertEnvelope): void;
  /** Posts once, now, outside the queue: what the receiver answered (a test). */
  sendOnce(webhookId: string, envelope: AlertEnvelope): Promise<PostOutcome | null>;
  /** Alerts waiting for this webhook, the one being sent included. */
  queued(webhookId: string): number;
  /** The webhook was removed: its queue is dropped, a try under way ended, its connections closed. */
  forget(webhookId: string): Promise<void>;
  on<K extends keyof SenderEvents>(event: K, listener: (payload: SenderEvents[K]) => void): Unsubscribe;
  close(): Promise<void>;
}

export type SenderEvents = {
  news: SendNews;
  /** A webhook's queue grew or shrank (its id). */
  queue: string;
};

/** Longest pause between two tries, however many failed. */
const MAX_BACKOFF_MS = 5 * 60_000;

interface Lane {
  readonly id: string;
  readonly queue: AlertEnvelope[];
  running: boolean;
  /** Monotonic instant before which nothing is posted (a receiver's 429). */
  notBefore: number;
  pool: { origin: string; pool: LazyPool } | null;
  readonly stop: AbortController;
}

export function createAlertSender(options: SenderOptions): AlertSender {
  const { clock, prepare } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxTries = options.maxTries ?? 5;
  const maxRateWaits = options.maxRateWaits ?? 5;
  const queueMax = options.queueMax ?? 50;
  const backoffMs = options.backoffMs ?? 2_000;
  const random = options.random ?? Math.random;
  const poolFor = options.poolFor ?? ((origin, ms) => lazyPool(origin, { connections: 2, keepAliveTimeout: 10_000, connectTimeout: ms, headersTimeout: ms, bodyTimeout: ms }));
  const emitter = createEmitter<SenderEvents>();
  const lanes = new Map<string, Lane>();
  let closed = false;

  const laneOf = (id: string): Lane => {
    let lane = lanes.get(id);
    if (!lane) lanes.set(id, (lane = { id, queue: [], running: false, notBefore: -Infinity, pool: null, stop: new AbortController() }));
    return lane;
  };
  const poolOf = (lane: Lane, origin: string): LazyPool => {
    if (lane.pool?.origin !== origin) {
      void lane.pool?.pool.close().catch(() => undefined);
      lane.pool = { origin, pool: poolFor(origin, timeoutMs) };
    }
    return lane.pool.pool;
  };
  const news = (item: SendNews) => emitter.emit('news', item);

  async function post(lane: Lane, envelope: AlertEnvelope): Promise<PostOutcome | null> {
    const prepared = await prepare(lane.id, envelope);
    if (!prepared || lane.stop.signal.aborted) return null;
    const outcome = await postAlert(poolOf(lane, prepared.origin), prepared, { clock, timeoutMs, signal: lane.stop.signal, clean: prepared.clean });
    // A try the desk ended (it closes, the webhook was removed) is no failure of the receiver's: nothing to say or retry.
    return lane.stop.signal.aborted ? null : outcome;
  }

  /** Until the monotonic instant `at`, measured again after each sleep: a timer may fire a little early, and a wait must be whole. */
  async function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
    for (let wait = at - clock.monotonic(); wait > 0; wait = at - clock.monotonic()) await clock.sleep(wait, signal);
  }

  /** Tries one alert until it is delivered or given up (or the lane stops: its sleep rejects). */
  async function deliver(lane: Lane, envelope: AlertEnvelope): Promise<void> {
    const { signal } = lane.stop;
    let tries = 0;
    let rateWaits = 0;
    for (;;) {
      await sleepUntil(lane.notBefore, signal);
      tries += 1;
      const outcome = await post(lane, envelope);
      if (outcome === null) return;
      if (outcome.kind === 'delivered') return news({ what: 'delivered', webhookId: lane.id, envelope, tries, outcome });
      const gaveUp = (why: string) => news({ what: 'gave_up', webhookId: lane.id, envelope, tries, why, status: outcome.status });
      if (outcome.kind === 'refused') return gaveUp(`the receiver ${outcome.words}`);
      if (outcome.kind === 'rate_limited') {
        rateWaits += 1;
        if (rateWaits > maxRateWaits) return gaveUp(`the receiver kept asking to wait (${outcome.words})`);
        // The receiver's limit is the webhook's: every alert of the queue waits.
        lane.notBefore = clock.monotonic() + outcome.waitMs;
        news({ what: 'retrying', webhookId: lane.id, envelope, tries, waitMs: outcome.waitMs, outcome });
        continue;
      }
      const failures = tries - rateWaits;
      const why = outcome.status === null ? outcome.words : `the receiver ${outcome.words}`;
      if (failures >= maxTries) return gaveUp(why);
      const pause = Math.round(Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (failures - 1)) * (0.75 + random() * 0.5));
      news({ what: 'retrying', webhookId: lane.id, envelope, tries, waitMs: pause, outcome });
      await sleepUntil(clock.monotonic() + pause, signal);
    }
  }

  async function drain(lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (!closed && !lane.stop.signal.aborted && lane.queue.length > 0) {
        const [envelope] = lane.queue;
        if (envelope) await deliver(lane, envelope).catch(() => undefined);
        lane.queue.shift();
        emitter.emit('queue', lane.id);
      }
    } finally {
      lane.running = false;
    }
  }

  return {
    enqueue(webhookId, envelope) {
      if (closed) return;
      const lane = laneOf(webhookId);
      if (lane.stop.signal.aborted) return;
      lane.queue.push(envelope);
      // The one being sent stays; the oldest of those waiting makes room.
      if (lane.queue.length > queueMax) {
        const [dropped] = lane.queue.splice(lane.running ? 1 : 0, 1);
        if (dropped) news({ what: 'dropped', webhookId, envelope: dropped });
      }
      emitter.emit('queue', webhookId);
      if (!lane.running) void drain(lane);
    },
    async sendOnce(webhookId, envelope) {
      if (closed) return null;
      return post(laneOf(webhookId), envelope);
    },
    queued: (webhookId) => lanes.get(webhookId)?.queue.length ?? 0,
    async forget(webhookId) {
      const lane = lanes.get(webhookId);
      if (!lane) return;
      lanes.delete(webhookId);
      lane.queue.length = 0;
      lane.stop.abort(new Error('webhook removed'));
      await lane.pool?.pool.close().catch(() => undefined);
    },
    on: (event, listener) => emitter.on(event, listener),
    async close() {
      closed = true;
      const all = [...lanes.values()];
      lanes.clear();
      for (const lane of all) {
        lane.queue.length = 0;
        lane.stop.abort(new Error('the desk is closing'));
      }
      await Promise.all(all.map((lane) => lane.pool?.pool.close().catch(() => undefined)));
    },
  };
}
