import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { bootFolder, endBoot, invoke, until } from './boot-support.ts';
import { app, BrowserWindow, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { startMainProcess } = await import('../../src-main/main-thread/desktop/main-process.ts');

/**
 * The data worker boots and loads the desk's code while Electron gets
 * ready (tens to hundreds of milliseconds of a start), and that worker is
 * the one the desk opens in: the worker's entry here notes each start of a
 * thread, then runs the real desk worker.
 */

let dir: string;
let mainDir: string;
beforeEach(async () => ({ dir, mainDir } = await bootFolder('desk-boot-ahead-')));
afterEach(() => endBoot(dir));

describe('the main process starting', () => {
  it('starts the data worker before Electron is ready, and opens the desk in that worker once it is', async () => {
    const starts = join(dir, 'worker-starts');
    const entry = join(dir, 'worker-entry.mjs');
    writeFileSync(entry, [
      "import { appendFileSync } from 'node:fs';",
      `appendFileSync(${JSON.stringify(starts)}, 'started\\n');`,
      `await import(${JSON.stringify(DESK_WORKER.href)});`,
    ].join('\n'));
    const release = app.holdReady();
    const main = startMainProcess({
      sandbox: { seed: 24, inventorySize: 50, tradeSchedule: false },
      secrets: memoryKeychain(),
      timeScale: { scale: 60, origin: Date.now() },
      workerScript: pathToFileURL(entry),
      mainDir,
      argv: ['/opt/marketplace-desk/marketplace-desk'],
      onlinePollMs: 20,
    });

    await until('the data worker to start', () => existsSync(starts));
    // Electron is not ready: nothing of the app's own is up yet.
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(Tray.instances).toHaveLength(0);

    release();
    expect(await main.started).not.toBeNull();
    expect(await invoke<{ total: number }>('ledger:page', { domain: 'listings' })).toMatchObject({ total: 0 });
    expect(readFileSync(starts, 'utf8')).toBe('started\n');
  });
});
