import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

/**
 * The packaged shape of the app, launched in real Electron: hardened window,
 * app:// origin, CSP, the bridge, closing to the tray. It needs the Electron binary,
 * which `npm install` downloads on a normal machine but cannot here; where it
 * is missing the launch tests are skipped with the reason.
 */
const root = join(import.meta.dirname, '..', '..');

/** The binary's path as the electron package records it, read without importing the package (which throws when absent). */
function electronBinary(): { path: string } | { skip: string } {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return { skip: 'Electron binary not installed (node_modules/electron/path.txt is missing)' };
  const path = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, readFileSync(pathFile, 'utf8'))
    : join(pkg, 'dist', readFileSync(pathFile, 'utf8'));
  if (!existsSync(path)) return { skip: `Electron binary not found at ${path}` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { skip: 'no display for Electron (run under xvfb-run)' };
  }
  return { path };
}

test('the sandboxed preload requires nothing but electron', () => {
  // A sandboxed preload cannot load node_modules: anything else must be bundled in.
  const bundle = join(root, 'out', 'preload', 'index.cjs');
  expect(existsSync(bundle), 'run `npm run build` first').toBe(true);
  const required = [...readFileSync(bundle, 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
  expect(new Set(required)).toEqual(new Set(['electron']));
});

test.describe('Electron launch', () => {
  const binary = electronBinary();
  // The list reporter does not print skip reasons; say it once, from the worker.
  if ('skip' in binary && process.env.TEST_WORKER_INDEX !== undefined) console.log(`Electron launch skipped: ${binary.skip}`);
  test.skip('skip' in binary, 'skip' in binary ? binary.skip : '');

  let userData: string;
  test.beforeEach(() => {
    userData = mkdtempSync(join(tmpdir(), 'desk-user-data-'));
  });
  test.afterEach(() => rmSync(userData, { recursive: true, force: true }));

  test('opens the hardened window on app://, with the bridge and the CSP, and closes to the tray, renderer and all', async () => {
    if (!('path' in binary)) return;
    const app = await electron.launch({
      executablePath: binary.path,
      args: [root, `--user-data-dir=${userData}`],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    try {
      const page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toMatch(/^app:\/\/desk\//);

      const renderer = await page.evaluate(() => {
        const g = globalThis as unknown as Record<string, unknown>;
        let evalBlocked = false;
        try {
          // The CSP has no 'unsafe-eval': this must throw.
          (0, eval)('1');
        } catch {
          evalBlocked = true;
        }
        return {
          require: typeof g.require,
          process: typeof g.process,
          api: Object.keys((g.api ?? {}) as object).sort(),
          evalBlocked,
          popup: (g.open as (url: string) => unknown)('https://example.com/') === null,
        };
      });
      expect(renderer).toEqual({ require: 'undefined', process: 'undefined', api: ['invoke', 'on'], evalBlocked: true, popup: true });

      await expect(page.evaluate(() => {
        const api = (globalThis as unknown as { api: { invoke(c: string, i: unknown): Promise<unknown> } }).api;
        return api.invoke('fs:readFile', '/etc/passwd');
      })).rejects.toThrow(/Unknown channel/);

      // Closing the window destroys it and its renderer; the app keeps running in the tray for the heartbeat.
      const afterClose = await app.evaluate(async ({ BrowserWindow }) => {
        const win = BrowserWindow.getAllWindows()[0];
        const closed = new Promise((resolve) => win?.once('closed', () => resolve(true)));
        win?.close();
        return { closed: await closed, windows: BrowserWindow.getAllWindows().length };
      });
      expect(afterClose).toEqual({ closed: true, windows: 0 });
      // Opening it again (a second launch, as the tray's Open) builds a new page.
      const reopened = app.waitForEvent('window');
      await app.evaluate(({ app: electronApp }) => void electronApp.emit('second-instance', {}, [], ''));
      const again = await reopened;
      await again.waitForLoadState('domcontentloaded');
      expect(again.url()).toMatch(/^app:\/\/desk\//);
    } finally {
      await app.close();
    }
  });
});
