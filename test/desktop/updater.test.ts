import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeUpdate } from '../../src-shared/updates.ts';
import { APP_ID } from '../../src-main/core/shell/app-identity.ts';
import { openAppLog } from '../../src-main/core/shell/app-log.ts';
import { createUpdateController } from '../../src-main/core/shell/update-controller.ts';
import { generateSigningKey, signUpdate } from '../../src-main/core/shell/update-signature.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { app, provideToCommonJs } from './fake-electron.ts';
import { leavePackagedAppImage, packagedAppImage } from './updater-support.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
// electron-updater requires electron itself, out of vi.mock's reach.
provideToCommonJs();
const { AppImageUpdater } = await import('electron-updater');
const { electronUpdateSource } = await import('../../src-main/main-thread/desktop/updater.ts');

/**
 * The real electron-updater, as a packaged Linux AppImage of version 0.1.0
 * would run it, against an update feed served on 127.0.0.1 the way the
 * release publishes one: latest*.yml naming the new AppImage with its
 * sha512, the file itself, and its detached signature `<file>.sig` made with
 * the release key (build/sign-update.ts). The app trusts that key's public
 * half only. Electron's HTTP client is the double's, carried by Node's http.
 *
 * Each bad update is refused with a log line and the sentence Settings
 * shows (`describeUpdate`), its file deleted and never installed.
 */
const INSTALLED = '0.1.0';
const NEW_VERSION = '0.2.0';
const FILE = `Marketplace-Desk-${NEW_VERSION}-x86_64.AppImage`;
// A shell script, so the real install (which runs the new AppImage once) can run it.
const payload = Buffer.from(`#!/bin/sh\nexit 0\n# Marketplace Desk ${NEW_VERSION} ${'x'.repeat(64 * 1024)}\n`);
const sha512Of = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

const release = generateSigningKey();
const stranger = generateSigningKey();

/** What the feed serves; each test sets what differs from a good release. */
interface Feed {
  version: string;
  /** The file's bytes. */
  body: Buffer;
  /** The sha512 the yml names (a compromised feed names the tampered file's). */
  ymlSha512: string;
  /** The .sig file's text; null: none on the feed. */
  signature: string | null;
  /** Where a request for the file is redirected, if anywhere. */
  fileRedirect: string | null;
  ymlRedirect: string | null;
}
let feed: Feed;
let server: Server;
let feedUrl: string;
let port: number;
let root: string;
const requests: Array<{ url: string; host: string }> = [];

const signed = (version: string, body: Buffer, key = release.privateKey) => signUpdate({ appId: APP_ID, version, sha512: sha512Of(body) }, key);
const goodFeed = (): Feed => ({
  version: NEW_VERSION, body: payload, ymlSha512: sha512Of(payload), signature: signed(NEW_VERSION, payload), fileRedirect: null, ymlRedirect: null,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host ?? '' });
    const path = (req.url ?? '').split('?')[0];
    // Whatever the platform's channel file is called (latest.yml, latest-mac.yml, latest-linux.yml…).
    if (path?.match(/^\/latest[-a-z0-9]*\.yml$/)) {
      if (feed.ymlRedirect) return void res.writeHead(302, { location: feed.ymlRedirect }).end();
      res.writeHead(200, { 'content-type': 'text/yaml' });
      res.end(`version: ${feed.version}\nfiles:\n  - url: ${FILE}\n    sha512: ${feed.ymlSha512}\n    size: ${feed.body.length}\npath: ${FILE}\nsha512: ${feed.ymlSha512}\nreleaseDate: '2026-11-01T00:00:00.000Z'\n`);
      return;
    }
    if (path === `/${FILE}`) {
      if (feed.fileRedirect) return void res.writeHead(302, { location: feed.fileRedirect }).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(feed.body.length) });
      res.end(feed.body);
      return;
    }
    if (path === `/${FILE}.sig` && feed.signature !== null) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(feed.signature);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  feedUrl = `http://127.0.0.1:${port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  feed = goodFeed();
  requests.length = 0;
  root = await packagedAppImage(feedUrl, INSTALLED);
});
afterEach(() => leavePackagedAppImage(root));

function setUp(options: { applyRunning?: () => boolean; realInstall?: boolean } = {}) {
  const updater = new AppImageUpdater();
  const install = options.realInstall ? vi.spyOn(updater, 'quitAndInstall') : vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => undefined);
  const log = openAppLog({ dir: join(root, 'logs'), level: 'debug' });
  const source = electronUpdateSource(updater, log, { feedUrl, publicKeys: [release.publicKey] });
  const controller = createUpdateController({
    source,
    enabled: () => true,
    applyRunning: options.applyRunning ?? (() => false),
    restart: () => source.install(false),
    onChange: () => undefined,
    clock: scaledClock(1),
  });
  /** The log's lines with this message. */
  const lines = (msg: string) => log.recent(1 << 20).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg);
  return { updater, install, controller, log, lines };
}

/** Update files left in electron-updater's cache (a refused one must not be). */
function cachedUpdates(): string[] {
  const dir = join(root, 'cache');
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.AppImage'));
  } catch {
    return [];
  }
}

describe('updates from the feed', () => {
  // Installing runs the new AppImage once (a shell script here), which Windows cannot.
  it.skipIf(process.platform === 'win32')('finds the newer version, downloads it, verifies its sha512 and its signature, and installs it', async () => {
    const { controller, install, log, lines } = setUp({ realInstall: true });
    const view = await controller.checkNow();
    expect(view).toMatchObject({ state: 'ready', version: NEW_VERSION, percent: 100, message: null });
    expect(describeUpdate(view)).toBe(`Version ${NEW_VERSION} is ready: restart to install it.`);
    expect(requests.map((r) => r.url)).toEqual(expect.arrayContaining([`/${FILE}`, `/${FILE}.sig`]));
    expect(lines('update signature verified')).toEqual([expect.objectContaining({ version: NEW_VERSION, file: FILE })]);
    expect(lines('update refused')).toEqual([]);

    controller.restartToUpdate();
    log.close();
    expect(install).toHaveBeenCalledExactlyOnceWith(true, false);
    // electron-updater's AppImage install: the running file is replaced by the verified download.
    expect(readFileSync(join(root, 'old.AppImage')).equals(payload)).toBe(true);
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
  });

  it('says so when it is up to date', async () => {
    feed.version = INSTALLED;
    const { controller, log } = setUp();
    expect(await controller.checkNow()).toMatchObject({ state: 'idle', version: null });
    log.close();
    expect(requests.map((r) => r.url)).not.toContain(`/${FILE}`);
  });

  it('defers the install until the running apply ends', async () => {
    let applying = true;
    const { controller, install, log } = setUp({ applyRunning: () => applying });
    await controller.checkNow();
    expect(controller.restartToUpdate()).toMatchObject({ state: 'ready', restartPending: true });
    expect(install).not.toHaveBeenCalled();
    applying = false;
    controller.applyEnded();
    log.close();
    expect(install).toHaveBeenCalledExactlyOnceWith(true, false);
  });
});

describe('bad updates, each refused: logged, said in Settings, deleted, never installed', () => {
  async function refused(expected: { version: string | null; sentence: RegExp; reason: RegExp }) {
    const { controller, install, log, lines } = setUp();
    const view = await controller.checkNow();
    const logged = lines('update refused');
    log.close();
    expect(view).toMatchObject({ state: 'refused', version: expected.version, percent: null });
    expect(view.message).toMatch(expected.sentence);
    expect(describeUpdate(view)).toBe(`${expected.version ? `Version ${expected.version}` : 'An update'} was refused and not installed: ${view.message}`);
    expect(logged).toEqual([expect.objectContaining({ level: 'warn', reason: expect.stringMatching(expected.reason) })]);
    expect(controller.restartToUpdate().state).toBe('refused');
    expect(install).not.toHaveBeenCalled();
    expect(cachedUpdates()).toEqual([]);
    expect(readFileSync(join(root, 'old.AppImage'), 'utf8')).toBe('old version');
    return view;
  }

  it('a tampered file, the feed unchanged: its sha512 does not match', async () => {
    // The same size, one byte changed.
    feed.body = Buffer.concat([payload.subarray(0, -2), Buffer.from('!\n')]);
    await refused({ version: NEW_VERSION, sentence: /^the downloaded file does not match the checksum the update feed gave\.$/, reason: /sha512 checksum mismatch/ });
  });

  it('a tampered file on a tampered feed (its sha512 rewritten to match): the signature does not', async () => {
    feed.body = Buffer.concat([payload.subarray(0, -2), Buffer.from('!\n')]);
    feed.ymlSha512 = sha512Of(feed.body);
    await refused({ version: NEW_VERSION, sentence: /^its signature does not match the publisher's key/, reason: /signature does not verify with any pinned key/ });
  });

  it('a file signed by another key', async () => {
    feed.signature = signed(NEW_VERSION, payload, stranger.privateKey);
    await refused({ version: NEW_VERSION, sentence: /^its signature does not match the publisher's key/, reason: /does not verify with any pinned key/ });
  });

  it('an unsigned file', async () => {
    feed.signature = null;
    await refused({ version: NEW_VERSION, sentence: /^it carries no signature from the publisher\.$/, reason: new RegExp(`no ${FILE}\\.sig on the feed`) });
  });

  it('a signature file that is not a signature', async () => {
    feed.signature = 'not a signature\n';
    await refused({ version: NEW_VERSION, sentence: /^its signature does not match the publisher's key/, reason: /is not a signature/ });
  });

  it('a downgrade: the feed offers an older version, which is not even downloaded', async () => {
    feed.version = '0.0.9';
    feed.signature = signed('0.0.9', payload);
    await refused({ version: '0.0.9', sentence: /^it is older than the installed version 0\.1\.0/, reason: /downgrade from 0\.1\.0 to 0\.0\.9/ });
    expect(requests.map((r) => r.url)).not.toContain(`/${FILE}`);
  });

  it('a downgrade in disguise: an older release\'s genuine file and signature, offered as a newer version', async () => {
    // Signed by the release key, but for the version it really is.
    feed.signature = signed('0.0.9', payload);
    await refused({ version: NEW_VERSION, sentence: /^its signature does not match the publisher's key/, reason: /does not verify/ });
  });

  it('a download redirected off the feed\'s host', async () => {
    // The same server under another name: only the policy stands between the request and the file.
    feed.fileRedirect = `http://localhost:${port}/${FILE}`;
    await refused({ version: NEW_VERSION, sentence: new RegExp(`^it was to come from another server \\(localhost:${port}\\); updates come only from 127\\.0\\.0\\.1:${port}\\.$`), reason: /off the feed's host/ });
    expect(requests.filter((r) => r.host.startsWith('localhost'))).toEqual([]);
  });

  it('the feed itself redirected off its host', async () => {
    feed.ymlRedirect = `http://localhost:${port}/latest-linux.yml`;
    await refused({ version: null, sentence: /^it was to come from another server/, reason: /off the feed's host/ });
    expect(requests.filter((r) => r.host.startsWith('localhost'))).toEqual([]);
  });
});
