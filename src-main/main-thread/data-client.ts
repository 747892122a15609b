import { z } from 'zod';
import type { DeskChannel } from '../../src-shared/contract.ts';
import { createEmitter, type Unsubscribe } from '../core/events.ts';
import { DomainError } from '../core/errors.ts';
import { BRIDGE_DEADLINE_MS, readBridgeReply, type BridgeReply } from '../core/data/bridge-calls.ts';
import type { ArgsOf, Call, MethodMap, MethodOf, ResultOf, Target } from '../core/data/methods.ts';
import { CROSSING, fromWorker, partOf, unpackValue, type BridgeCall, type DataEvent, type DataRequest } from '../core/data/protocol.ts';
import { DEFAULT_LIVENESS, watchLiveness, type Liveness, type LivenessWatch } from './liveness.ts';
import { restartPolicy, storeClosed, storeFailed, storeLate, storeRestarting } from './store-restarts.ts';
import { answerAsk, type MainAnswers } from './worker-asks.ts';

/**
 * The main thread's side of the data boundary. Every call is a typed method
 * of the shared map, a message to the worker and a promise of its reply,
 * parsed with the method's result schema; a bridge call is typed by its
 * channel, its reply read by the channel's output schema (`bridge-calls.ts`);
 * the worker's events are passed on, for their owner to read by its maps.
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
  /** An event as it came: its name, and a payload the owner reads by the map that names it. */
  event: DataEvent;
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
  onEvent?(event: DataEvent): void;
  /** What main answers when the worker asks. */
  answers?: MainAnswers<A>;
  /** Default DEFAULT_LIVENESS. */
  liveness?: Liveness;
}

export interface DataClient<M extends MethodMap<M>> {
  readonly call: Call<M>;
  /** A call of the bridge for the desk, with the renderer's input as it came (the router in the worker parses it). */
  bridge<C extends DeskChannel>(channel: C, input: unknown): Promise<BridgeReply<C>>;
  readonly state: DataClientState;
  /** `state` on every change; `event` for each event the worker pushes. */
  on<E extends keyof DataClientEvents>(event: E, listener: (payload: DataClientEvents[E]) => void): Unsubscribe;
  /** Ends the worker for good (waits for the calls under way to be answered first). */
  close(): Promise<void>;
  /** Kills the worker as a crash would (for tests of the restart). */
  kill(): Promise<void>;
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The request's ID once it was sent (a queued call has none yet). */
  sentId?: number;
}

/** A message of a call, without the ID it gets when it is sent. */
type Outgoing = Omit<DataRequest, 'id'> | Omit<BridgeCall, 'id'>;

export async function createDataClient<M extends MethodMap<M>, A extends MethodMap<A> = Record<never, never>>(
  options: DataClientOptions<M, A>,
): Promise<DataClient<M>> {
  const emitter = createEmitter<DataClientEvents>();
  const restarts = restartPolicy(options.maxRestarts ?? 5);
  const liveness = options.liveness ?? DEFAULT_LIVENESS;
  let state: DataClientState = 'starting';
  let worker: WorkerPort | null = null;
  let watch: LivenessWatch | null = null;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();
  /** Calls made while the worker starts: sent once it is ready. */
  let queued: { message: Outgoing; waiter: Waiting }[] = [];
  /** Every call not yet answered, so closing can wait for them. */
  const underWay = new Set<Promise<void>>();
  let starting: Promise<void> | null = null;

  const setState = (next: DataClientState) => {
    if (state === next) return;
    state = next;
    emitter.emit('state', next);
  };

  function send(message: Outgoing, waiter: Waiting, port: WorkerPort): void {
    const id = nextId++;
    waiter.sentId = id;
    waiting.set(id, waiter);
    port.postMessage({ ...message, id });
  }

  /**
   * One call: sent now (`port`), or queued until the worker is ready; settled
   * by the reply (read by `read`), the worker's death, or the deadline,
   * whichever comes first.
   */
  function exchange<T>(message: Outgoing, deadlineMs: number, read: (value: unknown) => T, port: WorkerPort | null): Promise<T> {
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A late answer finds no one waiting and is dropped.
        if (waiter.sentId !== undefined) waiting.delete(waiter.sentId);
        queued = queued.filter((q) => q.waiter !== waiter);
        reject(storeLate(deadlineMs));
      }, deadlineMs);
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
      if (port) send(message, waiter, port);
      else if (state === 'closed' || state === 'failed') waiter.reject(state === 'failed' ? storeFailed() : storeClosed());
      else if (state === 'ready' && worker) send(message, waiter, worker);
      else queued.push({ message, waiter });
    }).then(read);
    const settled = answer.then(() => undefined, () => undefined);
    underWay.add(settled);
    void settled.then(() => underWay.delete(settled));
    return answer;
  }

  /** A method's call: its answer read by the method's result schema. */
  function callMethod<T extends Target<M>, K extends MethodOf<M, T>>(target: T, name: K, args: ArgsOf<M, T, K>, port: WorkerPort | null): Promise<ResultOf<M, T, K>> {
    const spec = options.methods[target][name];
    return exchange({ target, method: name, args: [...args] }, spec.deadlineMs, (value) => {
      const schema: M[T][K]['result'] = spec.result;
      const parsed = z.safeParse(schema, value, CROSSING);
      if (parsed.success) return parsed.data;
      const error = new DomainError('internal', `The data worker answered ${target}.${name} with a value that does not fit it`);
      options.onWorkerError?.(new Error(`${error.message}: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`));
      throw error;
    }, port);
  }

  /** A call that goes even while the worker starts (the start's own calls). */
  const direct = (port: WorkerPort): Call<M> => (target, name, ...args) => callMethod(target, name, args, port);

  function onMessage(port: WorkerPort, message: unknown): void {
    if (port !== worker) return;
    const parsed = fromWorker.safeParse(message, CROSSING);
    if (!parsed.success) {
      options.onWorkerError?.(new Error('the data worker sent a message that does not match the protocol'));
      return;
    }
    const m = parsed.data;
    if ('pong' in m) return watch?.pong();
    if ('ask' in m) {
      // Answered straight to the worker that asked (not queued: it may be asking while it starts).
      void answerAsk(options.answers, m, message).then((reply) => {
        // A worker that died meanwhile is not asking any more.
        if (port === worker) port.postMessage(reply);
      });
      return;
    }
    if ('event' in m) {
      const event: DataEvent = { event: m.event, payload: partOf(message, 'payload') };
      options.onEvent?.(event);
      emitter.emit('event', event);
      return;
    }
    const waiter = waiting.get(m.id);
    if (!waiter) return;
    waiting.delete(m.id);
    if (m.ok) waiter.resolve(unpackValue(partOf(message, 'value')));
    else waiter.reject(new DomainError(m.error.kind, m.error.message));
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
    const delay = restarts.died();
    if (delay === null) {
      setState('failed');
      for (const q of queued) q.waiter.reject(storeFailed());
      queued = [];
      return;
    }
    setState('restarting');
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
      for (const q of pending) send(q.message, q.waiter, port);
    })().finally(() => (starting = null));
    return starting;
  }

  const client: DataClient<M> = {
    call: (target, name, ...args) => callMethod(target, name, args, null),
    bridge: (channel, input) => exchange({ channel, input }, BRIDGE_DEADLINE_MS, (reply) => readBridgeReply(channel, reply), null),
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
