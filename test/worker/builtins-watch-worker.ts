/**
 * The real data worker (`desk-worker.ts`), watched: asked by the thread named
 * in workerData (`postMessageToThread`, which builds no DOM event in this
 * thread), it answers the Node built-ins its thread has loaded so far.
 */
import { postMessageToThread, workerData } from 'node:worker_threads';

/** Node's own list of the built-ins and bindings this thread loaded (not in its typings). */
const loaded = (): string[] => [...((process as { moduleLoadList?: string[] }).moduleLoadList ?? [])];
const asker = (workerData as { watcher?: unknown } | undefined)?.watcher;
process.on('workerMessage', (value) => {
  if (value === 'builtins' && typeof asker === 'number') void postMessageToThread(asker, { builtins: loaded() });
});

await import('../../src-main/worker/desk-worker.ts');
