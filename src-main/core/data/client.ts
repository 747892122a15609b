import { createEmitter, type Unsubscribe } from '../events.ts';
import { DomainError } from '../errors.ts';
import { fromWorker, unpackValue, type DataRequest, type MainAnswer, type WorkerAsk } from './protocol.ts';

/**
 * The main thread's side of the data boundary. Every call is a message to
 * the worker and a promise of its reply; the worker's events are passed on.
 * A worker that dies is started again (after `onStart` has opened its stores
 * once more), the calls that were waiting on the dead one are refused as
 * `busy` ("the store is restarting": the trader may try again), and the calls
 * made meanwhile wait for the new one. After `maxRestarts` deaths within a
 * minute it is not started again: every call is refused until the app restarts.
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

export interface DataClientOptions {
  spawn(): WorkerPort;
  /** Run after every start, first and restarts, before other calls go (e.g. open the stores). */
  onStart?(call: DataClient['call']): Promise<void>;
  /** Deaths within a minute before giving up; default 5. */
  maxRestarts?: number;
  /** Told of a worker error (for the log). */
  onWorkerError?(error: Error): void;
  /**
   * Each event the worker pushes, from its first start on (a listener added
   * with `on('event')` once the client is returned misses those of the start).
   */
  onEvent?(event: { event: string; payload: unknown }): void;
  /** Answers what the worker asks of main (see `workerAsk`); its errors go back as error values. */
  onAsk?(target: string, method: string, args: readonly unknown[]): Promise<unknown>;
}

export interface DataClient {
  call(target: string, method: string, args: readonly unknown[]): Promise<unknown>;
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

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export async function createDataClient(options: DataClientOptions): Promise<DataClient> {
  const emitter = createEmitter<DataClientEvents>();
  const maxRestarts = options.maxRestarts ?? 5;
  let state: DataClientState = 'starting';
  let worker: WorkerPort | null = null;
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
    waiting.set(id, waiter);
    port.postMessage({ ...request, id } satisfies DataRequest);
  }

  /** A call that goes even while the worker starts (the start's own calls). */
  function direct(port: WorkerPort) {
    return (target: string, method: string, args: readonly unknown[]) =>
      new Promise<unknown>((resolve, reject) => send({ target, method, args: [...args] }, { resolve, reject }, port));
  }

  function onMessage(port: WorkerPort, message: unknown): void {
    if (port !== worker) return;
    const parsed = fromWorker.safeParse(message);
    if (!parsed.success) {
      options.onWorkerError?.(new Error('the data worker sent a message that does not match the protocol'));
      return;
    }
    const m = parsed.data;
    if ('ask' in m) {
      void answer(port, m);
      return;
    }
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
      if (!options.onAsk) throw new DomainError('internal', 'main answers nothing the worker asks');
      reply = { answer: ask.ask, ok: true, value: await options.onAsk(ask.target, ask.method, ask.args) };
    } catch (error) {
      const kind = error instanceof DomainError ? error.kind : 'internal';
      reply = { answer: ask.ask, ok: false, error: { kind, message: (error instanceof Error ? error.message : String(error)).slice(0, 4_000) } };
    }
    // A worker that died meanwhile is not asking any more.
    if (port === worker) port.postMessage(reply);
  }

  function onExit(port: WorkerPort): void {
    if (port !== worker) return;
    worker = null;
    // What was under way may or may not have been stored: the caller is told to try again.
    for (const w of waiting.values()) w.reject(storeRestarting());
    waiting.clear();
    if (state === 'closed') return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && (deaths[0] as number) < now - RESTART_WINDOW_MS) deaths.shift();
    if (deaths.length > maxRestarts) {
      setState('failed');
      for (const q of queued) q.waiter.reject(storeFailed());
      queued = [];
      return;
    }
    setState('restarting');
    const delay = RESTART_DELAYS_MS[Math.min(deaths.length - 1, RESTART_DELAYS_MS.length - 1)] ?? 0;
    setTimeout(() => void start(false).catch((error: unknown) => options.onWorkerError?.(error as Error)), delay);
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
      const pending = queued;
      queued = [];
      for (const q of pending) send(q.request, q.waiter, port);
    })().finally(() => (starting = null));
    return starting;
  }

  const client: DataClient = {
    call(target, method, args) {
      const answer = new Promise<unknown>((resolve, reject) => {
        const waiter = { resolve, reject };
        const request = { target, method, args: [...args] };
        if (state === 'closed' || state === 'failed') return reject(state === 'failed' ? storeFailed() : storeClosed());
        if (state === 'ready' && worker) return send(request, waiter, worker);
        queued.push({ request, waiter });
      });
      const settled = answer.then(() => undefined, () => undefined);
      underWay.add(settled);
      void settled.then(() => underWay.delete(settled));
      return answer;
    },
    get state() {
      return state;
    },
    on: (event, listener) => emitter.on(event, listener),
    async close() {
      if (state === 'closed') return;
      // What was asked is answered first (a draft edit, a journal entry), then the worker ends.
      await Promise.all([...underWay]);
      setState('closed');
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
