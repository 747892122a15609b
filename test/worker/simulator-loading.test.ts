import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BroadcastChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import type { SettingsPatch } from '../../src-main/core/settings/settings.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from '../support/router-call.ts';

/**
 * The built-in simulator is loaded into the data worker only when sandbox
 * mode starts: a desk that runs live never holds it. Read from the modules
 * the real worker thread loaded (a loader hook in its own thread).
 */
const WATCHED_WORKER = new URL('./module-watch-worker.ts', import.meta.url);
const SIMULATOR_DIR = new URL('../../src-main/sandbox/', import.meta.url).href;

let dir: string | null = null;
let connection: DeskConnection | null = null;
let channel: BroadcastChannel | null = null;
afterEach(async () => {
  await connection?.close();
  channel?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  connection = null;
  channel = null;
  dir = null;
});

async function openWatched(initialSettings: SettingsPatch): Promise<{ desk: DeskConnection; simulatorModules: () => Promise<string[]> }> {
  dir = await mkdtemp(join(tmpdir(), 'desk-simulator-loading-'));
  const watchChannel = `desk-module-watch-${process.pid}-${Date.now()}`;
  const watch = new BroadcastChannel(watchChannel);
  channel = watch;
  const quiet = () => undefined;
  const desk = await connectDesk({
    spawn: () => new Worker(WATCHED_WORKER, { workerData: { watchChannel } }),
    secrets: memoryKeychain(),
    config: { dataDir: dir, version: 'test', clock: null, sandbox: { seed: 4, inventorySize: 50, tradeSchedule: false }, initialSettings },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
  connection = desk;
  const simulatorModules = () =>
    new Promise<string[]>((resolve) => {
      watch.onmessage = (event) => {
        const urls: unknown = typeof event === 'object' && event !== null && 'data' in event ? event.data : null;
        resolve(Array.isArray(urls) ? urls.filter((url): url is string => typeof url === 'string' && url.startsWith(SIMULATOR_DIR)) : []);
      };
      watch.postMessage('list');
    });
  return { desk, simulatorModules };
}

describe('the simulator in the data worker', () => {
  it('is never loaded by a desk that runs live', async () => {
    const { desk, simulatorModules } = await openWatched({ mode: 'live', serviceUrl: 'https://api.liquid.tf' });
    const status = await call(desk.router, 'app:status', {});
    expect(status.mode).toBe('live');
    await call(desk.router, 'ledger:page', { domain: 'listings', offset: 0, limit: 50 });
    await call(desk.router, 'drafts:create', { name: 'live work' });
    expect(await simulatorModules()).toEqual([]);
  });

  it('is loaded when sandbox mode starts: here when the trader switches to it', async () => {
    const { desk, simulatorModules } = await openWatched({ mode: 'live', serviceUrl: 'https://api.liquid.tf' });
    expect(await simulatorModules()).toEqual([]);
    await call(desk.router, 'settings:update', { mode: 'sandbox' });
    const status = await call(desk.router, 'app:status', {});
    expect(status.mode).toBe('sandbox');
    expect(status.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(await simulatorModules()).toContain(`${SIMULATOR_DIR}index.ts`);
  });
});
