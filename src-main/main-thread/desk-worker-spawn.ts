import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** How the main thread starts the data worker, each time it starts it (first, and after a death). */
export interface DeskWorkerSpawn {
  /** The worker's script; default `desk-worker.cjs` beside the main bundle. */
  readonly script?: URL | string;
  /** Folder of the built main bundle. */
  readonly mainDir: string;
  /** Where the worker keeps V8's compiled code between starts. */
  readonly compileCache: string;
  /** The worker's Node flags, when they must not be this process's. */
  readonly execArgv?: readonly string[];
  /** V8's limits for the worker's heap (default: Node's, as for the process). */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * Starts the first worker now, for a client that takes it later (its first
 * call): the worker boots and loads the desk's code while this thread loads
 * its own. An error or exit of the worker before the client listens is kept
 * and told to the client's listeners as soon as it has added them; the worker
 * answers only what it is asked, so no message comes before. Later calls
 * start new workers (restarts).
 */
export function spawnAhead(spawn: () => Worker): () => Worker {
  const first = spawn();
  const early: Array<{ event: 'error'; error: Error } | { event: 'exit'; code: number }> = [];
  const keepError = (error: Error) => early.push({ event: 'error', error });
  const keepExit = (code: number) => early.push({ event: 'exit', code });
  first.on('error', keepError);
  first.on('exit', keepExit);
  let taken = false;
  return () => {
    if (taken) return spawn();
    taken = true;
    // The client adds its listeners as it takes the worker, before this runs; a worker's events come on later turns.
    queueMicrotask(() => {
      first.off('error', keepError);
      first.off('exit', keepExit);
      for (const e of early) {
        if (e.event === 'error') first.emit('error', e.error);
        else first.emit('exit', e.code);
      }
    });
    return first;
  };
}

export function deskWorkerSpawner(options: DeskWorkerSpawn): () => Worker {
  return () => new Worker(options.script ?? workerScriptIn(options.mainDir), {
    // Read by the worker's entry (worker/compiled-start.ts).
    workerData: { compileCache: options.compileCache },
    ...(options.execArgv ? { execArgv: [...options.execArgv] } : {}),
    ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
  });
}

/**
 * The data worker beside the main bundle (electron-vite builds it there); run
 * from the sources (the entry's own test), its TypeScript entry, which Node
 * runs with the types stripped. The sources are found from this file, as
 * either shell's composition root sits in a folder of its own.
 */
function workerScriptIn(mainDir: string): string {
  const built = join(mainDir, 'desk-worker.cjs');
  return existsSync(built) ? built : join(import.meta.dirname, '..', 'worker', 'desk-worker.ts');
}
