import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAppLog } from '../../src-main/core/shell/app-log.ts';
import { createUpdateController } from '../../src-main/core/shell/update-controller.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { app, provideToCommonJs, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
// electron-updater requires electron itself, out of vi.mock's reach.
provideToCommonJs();
const { AppImageUpdater } = await import('electron-updater');
const { electronUpdateSource } = await import('../../src-main/desktop/updater.ts');

/**
 * The real electron-updater, as a packaged Linux AppImage of version 0.1.0
 * would run it, against an update feed served on 127.0.0.1 the way the
 * generic provider in build/electron-builder.yml publishes one: latest-linux.yml
 * naming the new AppImage with its sha512, and the file itself. Electron's
 * HTTP client is the double's, carried by Node's http.
 */
const NEW_VERSION = '0.2.0';
const FILE = `Marketplace-Desk-${NEW_VERSION}-x86_64.AppImage`;
const payload = Buffer.from(`#!/bin/sh\necho "Marketplace Desk ${NEW_VERSION}"\n${'x'.repeat(64 * 1024)}\n`);
const sha512 = createHash('sha512').update(payload).digest('base64');

let feed: Server;
let feedUrl: string;
let tampered = false;
let root: string;
const requests: string[] = [];

beforeAll(async () => {
  feed = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.match(/^\/latest-linux(-arm64)?\.yml/)) {
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.end(`version: ${NEW_VERSION}\nfiles:\n  - url: ${FILE}\n    sha512: ${sha512}\n    size: ${payload.length}\npath: ${FILE}\nsha512: ${sha512}\nreleaseDate: '2026-11-01T00:00:00.000Z'\n`);
      return;
    }
    if (req.url === `/${FILE}`) {
      // The tampered file is the same size, one byte changed: only the checksum can tell.
      const body = tampered ? Buffer.concat([payload.subarray(0, -2), Buffer.from('!\n')]) : payload;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  feed.closeAllConnections();
  await new Promise<void>((resolve) => feed.close(() => resolve()));
});

beforeEach(async () => {
  resetFakeElectron();
  tampered = false;
  requests.length = 0;
  root = await mkdtemp(join(tmpdir(), 'desk-updater-'));
  // What a packaged AppImage has: resources/app-update.yml (electron-builder writes it from `publish`).
  await writeFile(join(root, 'app-update.yml'), `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: marketplace-desk-updater\n`);
  await writeFile(join(root, 'old.AppImage'), 'old version');
  Object.defineProperty(process, 'resourcesPath', { value: root, configurable: true });
  vi.stubEnv('APPIMAGE', join(root, 'old.AppImage'));
  vi.stubEnv('XDG_CACHE_HOME', join(root, 'cache'));
  app.isPackaged = true;
  app.version = '0.1.0';
  app.setPath('userData', join(root, 'user-data'));
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(root, { recursive: true, force: true });
});

function setUp(applyRunning: () => boolean = () => false) {
  const updater = new AppImageUpdater();
  const install = vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => undefined);
  const log = openAppLog({ dir: join(root, 'logs'), level: 'debug' });
  const source = electronUpdateSource(updater, log);
  const controller = createUpdateController({
    source,
    enabled: () => true,
    applyRunning,
    restart: () => source.install(true),
    onChange: () => undefined,
    clock: scaledClock(1),
  });
  return { updater, install, controller, log };
}

describe('updates from a generic feed', () => {
  it('finds the newer version, downloads it and verifies its sha512', async () => {
    const { controller, log } = setUp();
    const view = await controller.checkNow();
    log.close();
    expect(view).toMatchObject({ state: 'ready', version: NEW_VERSION, percent: 100, message: null });
    expect(requests.some((r) => r.startsWith('/latest-linux'))).toBe(true);
    expect(requests).toContain(`/${FILE}`);
  });

  it('says so when it is up to date', async () => {
    app.version = NEW_VERSION;
    const { controller, log } = setUp();
    expect(await controller.checkNow()).toMatchObject({ state: 'idle', version: null });
    log.close();
    expect(requests).not.toContain(`/${FILE}`);
  });

  it('refuses a tampered download: never ready, never installed', async () => {
    tampered = true;
    const { controller, install, log } = setUp();
    const view = await controller.checkNow();
    log.close();
    expect(view.state).toBe('error');
    expect(view.message).toMatch(/sha512 checksum mismatch/);
    expect(controller.restartToUpdate().state).toBe('error');
    expect(install).not.toHaveBeenCalled();
  });

  it('defers the install until the running apply ends', async () => {
    let applying = true;
    const { controller, install, log } = setUp(() => applying);
    await controller.checkNow();
    expect(controller.restartToUpdate()).toMatchObject({ state: 'ready', restartPending: true });
    expect(install).not.toHaveBeenCalled();
    applying = false;
    controller.applyEnded();
    log.close();
    expect(install).toHaveBeenCalledExactlyOnceWith(true, true);
  });
});
