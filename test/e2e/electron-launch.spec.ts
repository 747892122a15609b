import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';

/**
 * The built app in real Electron, as a trader starts it: a new profile (a
 * temporary folder, through --user-data-dir) in sandbox mode, the hardened
 * window on app:// with the bridge and the CSP, the Listings screen with
 * rows drafted through it, closing to the tray (window and renderer destroyed,
 * a second launch builds a new one), and a clean quit.
 *
 * It needs the Electron binary, which `npx install-electron` downloads on a
 * machine with the network (CI does, on three systems) and this one cannot;
 * where it is missing the launch tests are skipped, saying which file is
 * missing. REQUIRE_ELECTRON_LAUNCH=1 (set in CI) makes a missing binary a
 * failure instead, so CI cannot pass without running them.
 */
const root = join(import.meta.dirname, '..', '..');

/** Where electron's install puts the binary, per system (its install.js). */
function platformBinary(): string {
  if (process.platform === 'win32') return 'electron.exe';
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  return 'electron';
}

/** The binary's path as the electron package records it, read without importing the package (which downloads or throws when absent). */
function electronBinary(): { path: string } | { skip: string } {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : platformBinary();
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(pkg, 'dist');
  const path = join(dist, name);
  if (existsSync(pathFile) && existsSync(path)) return { path };
  return { skip: `the Electron binary ${relative(root, path)} is not installed` };
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
  if ('skip' in binary && process.env.REQUIRE_ELECTRON_LAUNCH === '1') {
    throw new Error(`REQUIRE_ELECTRON_LAUNCH is set but ${binary.skip}`);
  }
  // The list reporter does not print skip reasons; say it once, from the worker.
  if ('skip' in binary && process.env.TEST_WORKER_INDEX !== undefined) console.log(`Electron launch skipped: ${binary.skip}`);
  // CI sets REQUIRE_ELECTRON_LAUNCH, so only a machine that cannot download Electron skips.
  const missing = 'skip' in binary ? binary.skip : null;
  test.skip(missing !== null, `Electron cannot be downloaded on this machine: ${missing ?? ''}`);

  let userData: string;
  let app: ElectronApplication | null = null;
  let exited: Promise<number | null>;

  test.beforeEach(async () => {
    if (!('path' in binary)) return;
    userData = mkdtempSync(join(tmpdir(), 'desk-user-data-'));
    app = await electron.launch({
      executablePath: binary.path,
      args: [root, `--user-data-dir=${userData}`],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const child = app.process();
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  });
  test.afterEach(async () => {
    // A test that failed before quitting: end the app, then its profile.
    await app?.close().catch(() => undefined);
    app = null;
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  /** The tray's Quit: the app closes its store and its log, then exits. */
  async function quit(running: ElectronApplication): Promise<void> {
    await running.evaluate(({ app: electronApp }) => void setImmediate(() => electronApp.quit()));
    expect(await exited, 'exit code').toBe(0);
    expect(readFileSync(join(userData, 'logs', 'main.log'), 'utf8')).toMatch(/"msg":"closed"/);
  }

  test('starts on a temporary profile in sandbox mode, shows Listings with rows, and quits cleanly', async () => {
    const running = app as ElectronApplication;
    const page = await running.firstWindow();
    expect(page.url()).toMatch(/^app:\/\/desk\//);
    expect(await running.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(userData);

    // A new profile runs against the built-in simulator, and says so.
    await expect(page.getByTestId('sandbox-banner')).toContainText('built-in simulator');

    // Listings: three new listings drafted from asset IDs, each a row of the table.
    const assets = ['11040302755', '11040302756', '11040302757'];
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Listings/ }).click();
    const grid = page.getByRole('grid', { name: 'Listings' });
    await expect(grid).toBeVisible();
    await page.getByRole('button', { name: 'Create…' }).click();
    await page.getByLabel('Asset IDs').fill(assets.join('\n'));
    await page.getByLabel('Price for all').fill('4.50');
    await page.getByRole('button', { name: 'Add 3 listings to draft' }).click();
    for (const asset of assets) await expect(grid.locator(`[role=row][data-key="${asset}"]`)).toContainText('$4.50');

    // The store is in the temporary profile, not the trader's.
    expect(existsSync(join(userData, 'profiles'))).toBe(true);
    await quit(running);
  });

  test('opens the hardened window on app://, with the bridge and the CSP, and closes to the tray, renderer and all', async () => {
    const running = app as ElectronApplication;
    const page = await running.firstWindow();
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
    const afterClose = await running.evaluate(async ({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0];
      const closed = new Promise((resolve) => win?.once('closed', () => resolve(true)));
      win?.close();
      return { closed: await closed, windows: BrowserWindow.getAllWindows().length };
    });
    expect(afterClose).toEqual({ closed: true, windows: 0 });
    // Opening it again (a second launch, as the tray's Open) builds a new page.
    const reopened = running.waitForEvent('window');
    await running.evaluate(({ app: electronApp }) => void electronApp.emit('second-instance', {}, [], ''));
    const again = await reopened;
    await again.waitForLoadState('domcontentloaded');
    expect(again.url()).toMatch(/^app:\/\/desk\//);
    await quit(running);
  });
});
