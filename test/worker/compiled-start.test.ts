import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDesk } from '../../src-main/main-thread/desk-connection.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';

/**
 * The data worker's entry keeps V8's compiled code in the folder main names
 * (Node's compile cache), so later starts skip compiling the desk's bundle;
 * a folder it cannot write costs only that.
 */
const ENTRY = new URL('../../src-main/worker/compiled-start.ts', import.meta.url);

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

async function startAndClose(dataDir: string, compileCache: string): Promise<number> {
  const quiet = () => undefined;
  const desk = await connectDesk({
    spawn: () => new Worker(ENTRY, { workerData: { compileCache } }),
    secrets: memoryKeychain(),
    config: { dataDir, version: 'test', clock: null, sandbox: {}, checkOutputs: true },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  try {
    return (await call(desk.router, 'ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 10 })).total;
  } finally {
    await desk.close();
  }
}

const filesIn = (folder: string) => (existsSync(folder) ? readdirSync(folder, { recursive: true }).length : 0);

describe('the data worker’s entry', () => {
  it('keeps the compiled code in the folder it is given, and starts again on it with nothing new to keep', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-compiled-start-'));
    const cache = join(dir, 'compile-cache');
    expect(await startAndClose(join(dir, 'profiles'), cache)).toBe(0);
    const kept = filesIn(cache);
    expect(kept).toBeGreaterThan(10);
    expect(await startAndClose(join(dir, 'profiles'), cache)).toBe(0);
    expect(filesIn(cache)).toBe(kept);
  });

  it('starts without it when the folder cannot be made', async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-compiled-start-'));
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'not a folder');
    expect(await startAndClose(join(dir, 'profiles'), join(blocked, 'compile-cache'))).toBe(0);
  });
});
