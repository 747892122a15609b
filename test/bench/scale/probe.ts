import { BroadcastChannel } from 'node:worker_threads';

/**
 * The scale bench's questions to its probe in the data worker
 * (`probe-worker.mjs`), over a BroadcastChannel of the process: the worker's
 * own event-loop delay and heap can only be read in its thread.
 */
export const PROBE_CHANNEL = (pid: number) => `desk-scale-probe-${pid}`;

export type ProbeAsk = { ask: 'gc' } | { ask: 'start' } | { ask: 'stop' };
export type ProbeAnswer =
  | { ask: 'gc'; heapUsedMb: number; collected: boolean }
  | { ask: 'start' }
  | { ask: 'stop'; loopDelayMaxMs: number; loopDelayP99Ms: number; heapBaselineMb: number; heapPeakMb: number };

export type WindowFigures = Extract<ProbeAnswer, { ask: 'stop' }>;

/** The main thread's side: one question at a time, answered once the worker's loop turns. */
export function probeClient(pid = process.pid) {
  const channel = new BroadcastChannel(PROBE_CHANNEL(pid));
  channel.unref();
  const ask = <A extends ProbeAsk['ask']>(what: A): Promise<Extract<ProbeAnswer, { ask: A }>> =>
    new Promise((resolve) => {
      channel.onmessage = (event) => {
        const data = typeof event === 'object' && event !== null && 'data' in event ? (event.data as ProbeAnswer) : null;
        if (data?.ask === what) resolve(data as Extract<ProbeAnswer, { ask: A }>);
      };
      channel.postMessage({ ask: what } satisfies ProbeAsk);
    });
  return {
    gc: () => ask('gc'),
    start: () => ask('start'),
    stop: () => ask('stop'),
    close: () => channel.close(),
  };
}
