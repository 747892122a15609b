import { z } from 'zod';
import { createEmitter, type Unsubscribe } from '../core/events.ts';
import { DomainError } from '../core/errors.ts';
import { printable } from '../core/safe-text.ts';
import { DEFAULT_LIVENESS, watchLiveness, type Liveness, type LivenessWatch } from './liveness.ts';
import { resolveCall, type ArgsOf, type Call, type Implementation, type MethodMap, type MethodOf, type ResultOf, type Target } from '../core/data/methods.ts';
import { fromWorker, kindedError, unpackValue, type DataRequest, type MainAnswer, type WorkerAsk } from '../core/data/protocol.ts';

/**
 * The main thread's side of the data boundary. Every call is a typed method
 * of the shared map, a message to the worker and a promise of its reply,
 * parsed with the method's result schema; the worker's events are passed on.
 *
 * Nothing waits forever:
 * - every call has its method's deadline; past it the caller gets a `busy`
 *   error (the work may still finish in the worker; its late answer is dropped);
 * - while the worker is ready it is pinged (`liveness.ts`); one that stops
 *   answering is ended and restarted within `pingEveryMs + hangAfterMs`,
 *   exactly as one that died.
 *
 * A worker that dies or is ended is started again (after `onStart` has
 * opened its stores once more); the calls that were waiting on it are
 * refused as `busy` ("the store is restarting": the trader may try again),
 * and the calls made meanwhile wait for the new one. After `maxRestarts`
 * deaths within a minute it is not started again: every call is refused
 * until the app restarts.
 */

/** The part of a worker_threads Worker the client uses (tests pass a double). */
export interface WorkerPort {
  postMessage(value: unknown, transfer?: readonly ArrayBuffer[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

export type DataClientState = 'starting' | 'ready' | 'restarting' | 'failed' | 'closed';

export type DataClientEvents = {
  state: DataClientState;
  event: { event: string; payload: unknown };
};

export interface DataClientOptions<M extends MethodMap<M>, A extends MethodMap<A>> {
  /** The worker's method map, shared with its host. */
  readonly methods: M;
  spawn(): WorkerPort;
  /** Run after every start, first and restarts, before other calls go (e.g. open the stores). */
  onStart?(call: Call<M>): Promise<void>;
  /** Deaths within a minute before giving up; default 5. */
  maxRestarts?: number;
  /** Told of a worker error (for the log). */
  onWorkerError?(error: Error): void;
  /** Told when a worker stopped answering and is being ended (for the log). */
  onHang?(silentMs: number): void;
  /**
   * Each event the worker pushes, from its first start on (a listener added
   * with `on('event')` once the client is returned misses those of the start).
   */
  onEvent?(event: { event: string; payload: unknown }): void;
  /** What main answers when the worker asks (see `workerAsk`): main's method map and its implementation. */
  answers?: { readonly methods: A; readonly implementation: Implementation<A> };
  /** Default DEFAULT_LIVENESS. */
  liveness?: Liveness;
}

export interface DataClient<M extends MethodMap<M>> {
  readonly call: Call<M>;
  readonly state: DataClientState;
  /** `state` on every change; `event` for each event the worker pushes. */
  on<E extends keyof DataClientEvents>(event: E, listener: (payload: DataClientEvents[E]) => void): Unsubscribe;
  /** Ends the worker for good (waits for the calls under way to be answered first). */
  close(): Promise<void>;
  /** Kills the worker as a crash would (for tests of the restart). */
  kill(): Promise<void>;
}

const RESTART_WINDOW_MS = 60_000;
const RESTART_DELAYS_MS = [0, 100, 500, 2_000, 5_000];

export const storeRestarting = () =>
  new DomainError('busy', 'The desk’s store stopped and is being restarted; nothing stored was lost. Try again in a moment');
const storeClosed = () => new DomainError('internal', 'The desk’s store is closed');
const storeFailed = () =>
  new DomainError('internal', 'The desk’s store stopped several times and was not restarted; restart the app');
/** A call past its deadline: the worker is alive (else the liveness check ends it) but has not answered. */
export const storeLate = (deadlineMs: number) =>
  new DomainError('busy', `The desk’s store did not answer within ${Math.round(deadlineMs / 1000)} s; what was asked may still be done. Try again in a moment`);

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The request's ID once it was sent (a queued call has none yet). */
  sentId?: number;
}

export async function createDataClient<M extends MethodMap<M>, A extends MethodMap<A> = Record<never, never>>(
  options: DataClientOptions<M, A>,
): Promise<DataClient<M>> {
  const emitter = createEmitter<DataClientEvents>();
  const maxRestarts = options.maxRestarts ?? 5;
  const liveness = options.liveness ?? DEFAULT_LIVENESS;
  let state: DataClientState = 'starting';
  let worker: WorkerPort | null = null;
  let watch: LivenessWatch | null = null;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  /** Calls made while the worker starts: sent once it is ready. */
  let queued: { request: Omit<DataRequest, 'id'>; waiter: Waiting }[] = [];
  const deaths: number[] = [];
  /** Every call not yet answered, so closing can wait for them. */
  const underWay = new Set<Promise<void>>();
  let starting: Promise<void> | null = null;

  const setState = (next: DataClientState) => {
    if (state === next) return;
    state = next;
    emitter.emit('state', next);
  };

  function send(request: Omit<DataRequest, 'id'>, waiter: Waiting, port: WorkerPort): void {
    const id = nextId++;
    waiter.sentId = id;
    waiting.set(id, waiter);
    port.postMessage({ ...request, id } satisfies DataRequest);
  }

  /**
   * One call: sent now (`port`), or queued until the worker is ready; settled
   * by the reply, the worker's death, or the deadline, whichever comes first.
   */
  function exchange<T extends Target<M>, K extends MethodOf<M, T>>(target: T, name: K, args: ArgsOf<M, T, K>, port: WorkerPort | null): Promise<ResultOf<M, T, K>> {
    const spec = options.methods[target][name];
    const request = { target, method: name, args: [...args] };
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A late answer finds no one waiting and is dropped.
        if (waiter.sentId !== undefined) waiting.delete(waiter.sentId);
        queued = queued.filter((q) => q.waiter !== waiter);
        reject(storeLate(spec.deadlineMs));
      }, spec.deadlineMs);
      const waiter: Waiting = {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      if (port) send(request, waiter, port);
      else if (state === 'closed' || state === 'failed') waiter.reject(state === 'failed' ? storeFailed() : storeClosed());
      else if (state === 'ready' && worker) send(request, waiter, worker);
      else queued.push({ request, waiter });
    }).then((value) => {
      const schema: M[T][K]['result'] = spec.result;
      const parsed = z.safeParse(schema, value);
      if (parsed.success) return parsed.data;
      const error = new DomainError('internal', `The data worker answered ${target}.${name} with a value that does not fit it`);
      options.onWorkerError?.(new Error(`${error.message}: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`));
      throw error;
    });
    const settled = answer.then(() => undefined, () => undefined);
    underWay.add(settled);
    void settled.then(() => underWay.delete(settled));
    return answer;
  }

  /** A call that goes even while the worker starts (the start's own calls). */
  const direct = (port: WorkerPort): Call<M> => (target, name, ...args) => exchange(target, name, args, port);

  function onMessage(port: WorkerPort, message: unknown): void {
    if (port !== worker) return;
    const parsed = fromWorker.safeParse(message);
    if (!parsed.success) {
      options.onWorkerError?.(new Error('the data worker sent a message that does not match the protocol'));
      return;
    }
    const m = parsed.data;
    if ('pong' in m) return watch?.pong();
    if ('ask' in m) return void answer(port, m);
    if ('event' in m) {
      options.onEvent?.({ event: m.event, payload: m.payload });
      emitter.emit('event', { event: m.event, payload: m.payload });
      return;
    }
    const waiter = waiting.get(m.id);
    if (!waiter) return;
    waiting.delete(m.id);
    if (m.ok) waiter.resolve(unpackValue(m.value));
    else waiter.reject(new DomainError(m.error.kind, m.error.message));
  }

  /** Answers straight to the worker that asked (not queued: it may be asking while it starts). */
  async function answer(port: WorkerPort, ask: WorkerAsk): Promise<void> {
    let reply: MainAnswer;
    try {
      reply = { answer: ask.ask, ok: true, value: await answerAsk(ask) };
    } catch (error) {
      const view = kindedError(error) ?? { kind: 'internal' as const, message: (error instanceof Error ? error.message : String(error)).slice(0, 4_000) };
      reply = { answer: ask.ask, ok: false, error: view };
    }
    // A worker that died meanwhile is not asking any more.
    if (port === worker) port.postMessage(reply);
  }

  async function answerAsk(ask: WorkerAsk): Promise<unknown> {
    const answers = options.answers;
    const call = answers ? resolveCall(answers.methods, answers.implementation, ask.target, ask.method, ask.args) : null;
    if (!call || 'refused' in call) {
      const what = `${printable(ask.target, 40)}.${printable(ask.method, 60)}`;
      throw new DomainError('internal', call?.refused === 'arguments' ? `the data worker asked ${what} with arguments that do not fit it` : `main does not answer ${what}`);
    }
    const value: unknown = await call.run();
    return value;
  }

  function onExit(port: WorkerPort): void {
    if (port !== worker) return;
    worker = null;
    watch?.stop();
    watch = null;
    // What was under way may or may not have been stored: the caller is told to try again.
    for (const w of waiting.values()) w.reject(storeRestarting());
    waiting.clear();
    if (state === 'closed') return;
    // Deaths are counted over a window of time: a duration, on the monotonic clock.
    const now = performance.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - RESTART_WINDOW_MS) deaths.shift();
    if (deaths.length > maxRestarts) {
      setState('failed');
      for (const q of queued) q.waiter.reject(storeFailed());
      queued = [];
      return;
    }
    setState('restarting');
    const delay = RESTART_DELAYS_MS[Math.min(deaths.length - 1, RESTART_DELAYS_MS.length - 1)] ?? 0;
    setTimeout(() => void start(false).catch((error: unknown) => options.onWorkerError?.(error instanceof Error ? error : new Error(String(error)))), delay);
  }

  function start(first: boolean): Promise<void> {
    starting ??= (async () => {
      const port = options.spawn();
      worker = port;
      port.on('message', (m) => onMessage(port, m));
      port.on('error', (e) => options.onWorkerError?.(e));
      port.on('exit', () => onExit(port));
      try {
        await options.onStart?.(direct(port));
      } catch (error) {
        // The store would not open. At first there is nothing to restart: the caller is told.
        // Later, ending the worker counts as a death, and the next start tries again after a pause.
        if (first) setState('closed');
        if (worker === port) await port.terminate();
        throw error;
      }
      if (worker !== port) return;
      setState('ready');
      // A worker silent past the allowed time is ended; its exit starts a new one.
      watch = watchLiveness(port, liveness, {
        current: () => worker === port,
        onHang: (silentMs) => {
          options.onHang?.(silentMs);
          void port.terminate();
        },
      });
      const pending = queued;
      queued = [];
      for (const q of pending) send(q.request, q.waiter, port);
    })().finally(() => (starting = null));
    return starting;
  }

  const client: DataClient<M> = {
    call: (target, name, ...args) => exchange(target, name, args, null),
    get state() {
      return state;
    },
    on: (event, listener) => emitter.on(event, listener),
    async close() {
      if (state === 'closed') return;
      // What was asked is answered first (a draft edit, a journal entry), then the worker ends.
      await Promise.all([...underWay]);
      setState('closed');
      watch?.stop();
      watch = null;
      for (const q of queued) q.waiter.reject(storeClosed());
      queued = [];
      const port = worker;
      worker = null;
      await port?.terminate();
    },
    async kill() {
      await worker?.terminate();
    },
  };
  await start(true);
  return client;
}
