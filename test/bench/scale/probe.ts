import { postMessageToThread } from 'node:worker_threads';

/**
 * The scale bench's questions to its probe in the data worker
 * (`probe-worker.cjs`): the worker's own event-loop delay and heap can only
 * be read in its thread. They go by `postMessageToThread`, which arrives as
 * a process event, not by a BroadcastChannel: delivering a BroadcastChannel
 * message builds a DOM MessageEvent, which loads Node's own bundled fetch
 * (about 750 kB of source) into each thread, and that weight would be
 * counted as the app's.
 */
export const PROBE_TAG = 'desk-scale-probe';

export type ProbeAsk = { ask: 'gc' } | { ask: 'start' } | { ask: 'stop' };
export type ProbeAnswer =
  | { ask: 'gc'; heapUsedMb: number; collected: boolean }
  | { ask: 'start' }
  | { ask: 'stop'; loopDelayMaxMs: number; loopDelayP99Ms: number; heapBaselineMb: number; heapPeakMb: number };
/** What the probe sends when its worker starts, so the main thread knows which thread to ask. */
export type ProbeHello = { ask: 'hello' };

export type WindowFigures = Extract<ProbeAnswer, { ask: 'stop' }>;

/** A message between the bench's two sides, told apart from any other thread message by its tag. */
export type ProbeMessage<T> = { readonly tag: typeof PROBE_TAG; readonly body: T };
export const isProbeMessage = (value: unknown): value is ProbeMessage<unknown> =>
  typeof value === 'object' && value !== null && (value as { tag?: unknown }).tag === PROBE_TAG;

/**
 * The main thread's side: one question at a time, answered once the worker's
 * loop turns. The probe's thread is the last one that said hello (a worker
 * restarted by the desk says it again).
 */
export function probeClient() {
  let thread: number | null = null;
  let waiting: ((answer: ProbeAnswer) => void) | null = null;
  let hello: (() => void) | null = null;
  process.on('workerMessage', (value: unknown, source: number) => {
    if (!isProbeMessage(value)) return;
    const body = value.body as ProbeAnswer | ProbeHello;
    if (body.ask === 'hello') {
      thread = source;
      hello?.();
    } else waiting?.(body);
  });
  const probeThread = (): Promise<number> =>
    thread !== null ? Promise.resolve(thread) : new Promise((resolve) => (hello = () => resolve(thread as number)));
  const ask = async <A extends ProbeAsk['ask']>(what: A): Promise<Extract<ProbeAnswer, { ask: A }>> => {
    const to = await probeThread();
    return new Promise((resolve) => {
      waiting = (answer) => {
        if (answer.ask === what) resolve(answer as Extract<ProbeAnswer, { ask: A }>);
      };
      void postMessageToThread(to, { tag: PROBE_TAG, body: { ask: what } } satisfies ProbeMessage<ProbeAsk>);
    });
  };
  return {
    gc: () => ask('gc'),
    start: () => ask('start'),
    stop: () => ask('stop'),
  };
}
