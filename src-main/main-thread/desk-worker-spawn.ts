import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** How the main thread starts the data worker, each time it starts it (first, and after a death). */
export interface DeskWorkerSpawn {
  /** The worker's script; default `desk-worker.js` beside the main bundle. */
  readonly script?: URL | string;
  /** Folder of the built main bundle. */
  readonly mainDir: string;
  /** Where the worker keeps V8's compiled code between starts. */
  readonly compileCache: string;
  /** The worker's Node flags, when they must not be this process's. */
  readonly execArgv?: readonly string[];
}

export function deskWorkerSpawner(options: DeskWorkerSpawn): () => Worker {
  return () => new Worker(options.script ?? workerScriptIn(options.mainDir), {
    // Read by the worker's entry (worker/compiled-start.ts).
    workerData: { compileCache: options.compileCache },
    ...(options.execArgv ? { execArgv: [...options.execArgv] } : {}),
  });
}

/**
 * The data worker beside the main bundle (electron-vite builds it there); run
 * from the sources (the entry's own test), its TypeScript entry, which Node
 * runs with the types stripped. The sources are found from this file, as
 * either shell's composition root sits in a folder of its own.
 */
function workerScriptIn(mainDir: string): string {
  const built = join(mainDir, 'desk-worker.js');
  return existsSync(built) ? built : join(import.meta.dirname, '..', 'worker', 'desk-worker.ts');
}
