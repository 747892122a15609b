/**
 * The real data worker (`desk-worker.ts`), with one addition for the tests
 * of its liveness check: a message on the BroadcastChannel named in its
 * workerData makes its thread spin for good, as a step that never ends would.
 * Nothing else differs: the desk, its store and its apply are the app's.
 */
import { BroadcastChannel, workerData } from 'node:worker_threads';

const channel = new BroadcastChannel(String((workerData as { hangChannel?: unknown } | undefined)?.hangChannel ?? 'desk-worker-hang'));
channel.onmessage = () => {
  for (;;) {
    // A busy loop: the event loop never turns again.
  }
};
// Let the channel's handle not keep a worker alive that is ending.
channel.unref();

await import('../../src-main/worker/desk-worker.ts');
