/**
 * The real data worker (`desk-worker.ts`), watched: every module its thread
 * loads is recorded by a loader hook registered before it starts, and the
 * list is told on the BroadcastChannel named in workerData when asked.
 */
import { registerHooks } from 'node:module';
import { BroadcastChannel, workerData } from 'node:worker_threads';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
const channel = new BroadcastChannel(String((workerData as { watchChannel?: unknown } | undefined)?.watchChannel));
channel.onmessage = () => channel.postMessage([...loaded]);
channel.unref();

await import('../../src-main/worker/desk-worker.ts');
