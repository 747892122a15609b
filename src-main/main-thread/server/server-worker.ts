import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { deskWorkerSpawner } from '../desk-worker-spawn.ts';

/**
 * The server's data worker, with its old generation capped. V8 lets a heap
 * grow by a factor it picks from the heap's limit: under Node's default
 * limit (a quarter of the machine's memory, up to 4 GB) that factor is 4, so
 * a worker holding 40 MB of live objects let its heap reach 107 MB before a
 * full collection, in a simulated day of trading. Under 1 GB the factor is
 * about 1.6 and the heap stayed at 62–66 MB, while the desk's largest jobs
 * (a 1,000,000-row CSV preview) need a few hundred megabytes at most. The
 * desktop app is started and quit by the trader; the server runs for weeks.
 */
export const SERVER_WORKER_LIMITS = { maxOldGenerationSizeMb: 1024 } as const;

export interface ServerWorkerOptions {
  /** Folder of the built main bundle. */
  readonly mainDir: string;
  readonly profileDir: string;
  /** The worker's script (tests); default the desk's, beside the bundle. */
  readonly script?: string;
}

export function serverWorkerSpawner(options: ServerWorkerOptions): () => Worker {
  return deskWorkerSpawner({
    mainDir: options.mainDir,
    compileCache: join(options.profileDir, 'compile-cache'),
    resourceLimits: SERVER_WORKER_LIMITS,
    ...(options.script ? { script: options.script } : {}),
  });
}
