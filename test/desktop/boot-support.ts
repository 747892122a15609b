import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { app, ipcMain, resetFakeElectron, Tray } from './fake-electron.ts';

/**
 * What the boot test needs around the composition root: a built-looking
 * `out/` folder (the renderer page and the preload the window names), calls
 * through ipcMain's bound handlers as the preload makes them, and waiting
 * for something the app does in its own time.
 */

/** The page every boot serves; the CSP test reads it back through app://. */
export const RENDERER_HTML = '<!doctype html><title>desk</title><div id="app"></div>';

/** Creates `<root>/out/{main,preload,renderer}` as electron-vite would; returns out/main. */
export async function fakeBuild(root: string): Promise<string> {
  const out = join(root, 'out');
  await mkdir(join(out, 'main'), { recursive: true });
  await mkdir(join(out, 'preload'), { recursive: true });
  await mkdir(join(out, 'renderer'), { recursive: true });
  await writeFile(join(out, 'renderer', 'index.html'), RENDERER_HTML);
  await writeFile(join(out, 'preload', 'index.cjs'), '"use strict";');
  return join(out, 'main');
}

/**
 * A boot of its own: a temp folder with its `out/` (returned), the Electron
 * double reset, and the app's data folder in it.
 */
export async function bootFolder(prefix: string): Promise<{ dir: string; mainDir: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const mainDir = await fakeBuild(dir);
  resetFakeElectron();
  app.setPath('userData', join(dir, 'user-data'));
  return { dir, mainDir };
}

/** Ends a boot: quits from the tray if the app is still running, then removes its folder. */
export async function endBoot(dir: string): Promise<void> {
  if (app.exitCode === null && Tray.instances[0]) {
    Tray.instances[0].clickItem('quit');
    await until('the app to exit', () => app.exitCode !== null);
  }
  // The data worker writes its compiled code into the user data folder as it ends, which can be just after the app
  // says it exited: a removal meeting a file written meanwhile (ENOTEMPTY) tries again.
  await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

/** The sender Electron reports for a call from the app's own page. */
const APP_FRAME = { senderFrame: { url: 'app://desk/index.html', parent: null } };

/** Invokes a channel through the handler the app bound, exactly as the preload's ipcRenderer.invoke would reach it. */
export async function invoke<T = unknown>(channel: string, input: unknown = {}): Promise<T> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`nothing is bound to ${channel}`);
  const result = (await handler(APP_FRAME, input)) as { ok: boolean; value?: T; error?: { message: string } };
  if (!result.ok) throw new Error(`${channel} failed: ${result.error?.message}`);
  return result.value as T;
}

/** Waits until `check` returns something truthy, polling; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      expect.fail(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A keychain service name of this test run's own, so nothing touches a real entry. */
export function keychainServiceFor(dir: string): string {
  return `Marketplace Desk boot test ${createHash('sha256').update(dir).digest('hex').slice(0, 12)}`;
}
