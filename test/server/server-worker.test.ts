import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_WORKER_LIMITS, serverWorkerSpawner } from '../../src-main/main-thread/server/server-worker.ts';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/** A worker that answers with the limits its heap runs under. */
const REPORTER = `
  import { parentPort, resourceLimits } from 'node:worker_threads';
  import { getHeapStatistics } from 'node:v8';
  parentPort.postMessage({ resourceLimits, heapLimitMb: getHeapStatistics().heap_size_limit / 2 ** 20 });
`;

describe('the server\'s data worker', () => {
  it('runs with its old generation capped, so V8 collects its garbage at a fraction of the heap it would let grow', async () => {
    const profileDir = mkdtempSync(join(tmpdir(), 'desk-server-worker-'));
    cleanup.push(() => rmSync(profileDir, { recursive: true, force: true }));
    const script = join(profileDir, 'reporter.mjs');
    writeFileSync(script, REPORTER);
    const worker: Worker = serverWorkerSpawner({ mainDir: profileDir, profileDir, script })();
    cleanup.push(() => worker.terminate());
    const said = await new Promise<{ resourceLimits: { maxOldGenerationSizeMb: number }; heapLimitMb: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    expect(said.resourceLimits.maxOldGenerationSizeMb).toBe(SERVER_WORKER_LIMITS.maxOldGenerationSizeMb);
    // Under 2 GB: V8's growing factor is then below 2 (at 2 GB or more it is 4).
    expect(said.heapLimitMb).toBeLessThan(2048);
  });
});
