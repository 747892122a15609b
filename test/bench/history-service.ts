/**
 * The simulator for the whole-load part of history-record.ts, in a worker
 * thread of its own (in the app the service is elsewhere): its trade lists
 * answer `trades` more trades at once (the `tradeFlood` knob). Posts where
 * it listens and its key, then waits for `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '../../src-main/sandbox/index.ts';

export interface FloodServiceData {
  readonly trades: number;
}

export interface FloodServiceReady {
  readonly url: string;
  readonly apiKey: string;
}

const data = workerData as FloodServiceData;
const sandbox = await startSandbox({ seed: 23, pastDays: 0, tradeSchedule: false, inventorySize: 100 });
sandbox.faults.set({ tradeFlood: { count: data.trades, endpoints: ['load_pending'] } });
parentPort?.postMessage({ url: sandbox.url, apiKey: sandbox.apiKey } satisfies FloodServiceReady);
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0));
});
