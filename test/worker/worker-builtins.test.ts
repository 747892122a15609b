import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postMessageToThread, threadId, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';

/**
 * What the data worker's start loads of Node itself. Node's bundled undici
 * (fetch, WebSocket and the web classes, about 750 kB of source) costs the
 * worker's start about 40 ms and 2.5 MB; the desk's own HTTP client is the
 * undici package's Pool alone, loaded once the service is first asked.
 * node:child_process (with net, dgram and their bindings) is only for the
 * profile lock's `ps` where there is no /proc.
 */
const WATCHED_WORKER = new URL('./builtins-watch-worker.ts', import.meta.url);

let dir: string | null = null;
let connection: DeskConnection | null = null;
afterEach(async () => {
  await connection?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  connection = null;
  dir = null;
});

function builtinsOf(worker: Worker): Promise<string[]> {
  return new Promise((resolve) => {
    const answered = (value: unknown) => {
      if (typeof value !== 'object' || value === null || !('builtins' in value) || !Array.isArray(value.builtins)) return;
      process.off('workerMessage', answered);
      resolve(value.builtins.filter((name): name is string => typeof name === 'string'));
    };
    process.on('workerMessage', answered);
    void postMessageToThread(worker.threadId, 'builtins');
  });
}

describe('the data worker at start', () => {
  it('opens and answers its first page without the built-ins it does not use', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-worker-builtins-'));
    let worker: Worker | null = null;
    const quiet = () => undefined;
    connection = await connectDesk({
      spawn: () => (worker = new Worker(WATCHED_WORKER, { workerData: { watcher: threadId } })),
      secrets: memoryKeychain(),
      config: { dataDir: dir, version: 'test', clock: null, sandbox: {}, initialSettings: { mode: 'live', serviceUrl: 'https://api.liquid.tf' } },
      platform: { openLink: quiet },
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
    await call(connection.router, 'ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 50 });
    if (!worker) throw new Error('no worker was started');
    const builtins = await builtinsOf(worker);
    expect(builtins).toContain('NativeModule sqlite');
    expect(builtins.filter((name) => name.includes('undici'))).toEqual([]);
    // Where /proc tells a process's start time (profile-lock.ts asks `ps` elsewhere).
    if (process.platform === 'linux') expect(builtins).not.toContain('NativeModule child_process');
  });
});
