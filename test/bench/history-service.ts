/**
 * The simulator for the whole-load part of history-record.ts, in a worker
 * thread of its own (in the app the service is elsewhere): its trade lists
 * answer `trades` more trades at once (the `tradeFlood` knob). It also asks
 * a twin simulator (same seed and knob, a key and rate budget of its own)
 * for that answer once and posts its bytes, so the bench can time reading
 * it apart from the load. Posts where it listens and its key, then waits
 * for `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox } from '../../src-main/sandbox/index.ts';

export interface FloodServiceData {
  readonly trades: number;
}

export interface FloodServiceReady {
  readonly url: string;
  readonly apiKey: string;
  /** The body of a load_pending answer as the simulator gives it, from the twin. */
  readonly answer: Uint8Array;
}

const data = workerData as FloodServiceData;
const flooded = async () => {
  const sandbox = await startSandbox({ seed: 23, pastDays: 0, tradeSchedule: false, inventorySize: 100 });
  sandbox.faults.set({ tradeFlood: { count: data.trades, endpoints: ['load_pending'] } });
  return sandbox;
};
const twin = await flooded();
const response = await fetch(`${twin.url}/api/dev/load_pending`, { headers: { 'x-api-key': twin.apiKey } });
const answer = new Uint8Array(await response.arrayBuffer());
await twin.close();
const sandbox = await flooded();
parentPort?.postMessage({ url: sandbox.url, apiKey: sandbox.apiKey, answer } satisfies FloodServiceReady, [answer.buffer]);
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0));
});
