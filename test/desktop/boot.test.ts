import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../src-shared/channels.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { createKeychainSecretStore } from '../../src-main/main-thread/keychain.ts';
import type { RunningApp } from '../../src-main/main-thread/desktop/main-process.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { batchesInFlight } from '../core/apply/apply-audit.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { fakeBuild, invoke, keychainServiceFor, RENDERER_HTML, until } from './boot-support.ts';
import { app, BrowserWindow, dialog, ipcMain, Notification, net, powerMonitor, resetFakeElectron, session, shell, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { startMainProcess } = await import('../../src-main/main-thread/desktop/main-process.ts');

/**
 * The assembled main process, booted as Electron would start it but on the
 * Electron double: the real composition root, the data worker running the
 * core, SQLite profile in a temp folder, OS keychain (gnome-keyring under
 * test/with-keyring.sh) and the simulator as the live service, driven
 * through ipcMain's bound handlers as the preload would. Time runs 60 times
 * faster for the desk and the service alike, so a rate-limit minute is a
 * second.
 */

const timeScale = { scale: 60, origin: Date.now() };
const clock = scaledClock(timeScale.scale, timeScale.origin);
const LOG_FILE_BYTES = 2_048;
const LOG_FILES = 3;
let dir: string;
let mainDir: string;
let service: Sandbox;
let keychainService: string;
let running: RunningApp;
/** Every event the router pushed while the test listened and a window was open to take it. */
const routed = new Set<string>();

/** The window the app opened last (closing one to the tray destroys it; opening again makes another). */
const win = () => {
  const w = BrowserWindow.instances.at(-1);
  if (!w) throw new Error('no window was created');
  return w;
};
const tray = () => {
  const t = Tray.instances[0];
  if (!t) throw new Error('no tray was created');
  return t;
};
/** What every window of this boot was sent (closing one to the tray destroys it; the next is another). */
const sentEvents = () => BrowserWindow.instances.flatMap((w) => w.webContents.sent.map(([name]) => name));
const lastBeatAt = () => service.log.requests.filter((r) => r.endpoint === 'set_user_agent').at(-1)?.at ?? 0;
const beats = () => service.log.requests.filter((r) => r.endpoint === 'set_user_agent' && r.status === 200).length;

async function boot(argv: readonly string[] = []): Promise<RunningApp> {
  resetFakeElectron();
  app.setPath('userData', join(dir, 'user-data'));
  const started = await startMainProcess({
    sandbox: { seed: 22, inventorySize: 200, tradeSchedule: false },
    secrets: createKeychainSecretStore({ service: keychainService }),
    timeScale,
    workerScript: DESK_WORKER,
    mainDir,
    argv: ['/opt/marketplace-desk/marketplace-desk', ...argv],
    onlinePollMs: 20,
    // Small files, so two boots rotate them.
    log: { level: 'debug', maxFileBytes: LOG_FILE_BYTES, maxFiles: LOG_FILES },
  }).started;
  if (!started) throw new Error('the first instance gave way');
  started.router.subscribe((event) => {
    if (BrowserWindow.getAllWindows().length > 0) routed.add(event);
  });
  return started;
}

async function quitFromTray(): Promise<void> {
  tray().clickItem('quit');
  await until('the app to exit', () => app.exitCode !== null);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-boot-'));
  mainDir = await fakeBuild(dir);
  keychainService = keychainServiceFor(dir);
  const keychain = createKeychainSecretStore({ service: keychainService });
  expect(await keychain.state(), 'no Secret Service: run through test/with-keyring.sh').toBe('available');
  service = await startSandbox({ clock, seed: 21, inventorySize: 2_000, tradeSchedule: false });
  running = await boot();
});

afterAll(async () => {
  if (app.exitCode === null) await quitFromTray().catch(() => undefined);
  await service.close();
  await keytar.deletePassword(keychainService, 'api-key:default').catch(() => false);
  await rm(dir, { recursive: true, force: true });
});

describe('the main process, booted', () => {
  it('binds every channel of the contract, and nothing else', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CHANNEL_NAMES].sort());
    expect([...ipcMain.listeners.keys()]).toEqual([]);
    expect([...running.router.events].sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('opens the hardened window on app:// and serves it with the CSP header', async () => {
    expect(BrowserWindow.instances).toHaveLength(1);
    expect(win().options.webPreferences).toMatchObject({
      preload: join(dir, 'out', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(win().loadedUrl).toBe('app://desk/index.html');
    await until('the window to show', () => win().visible);
    const page = await session.defaultSession.fetch('app://desk/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )default-src 'none'(;|$)/);
    expect(page.headers.get('content-security-policy')).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(await page.text()).toBe(RENDERER_HTML);
  });

  it('stores a key set through the bridge in the keychain, and the heartbeat beats', async () => {
    await invoke('settings:update', { mode: 'live', serviceUrl: service.url });
    await until('the live workspace', async () => (await invoke<{ mode: string }>('app:status')).mode === 'live');
    // Its first requests find no key and block the scheduler. (A key set while one of them is still
    // on its way is lost to that block: a race in the core, reported separately; not this test's subject.)
    await until('the live workspace to wait for a key', async () => (await invoke<{ blocked: string | null }>('scheduler:state')).blocked === 'auth');
    const status = await invoke<{ set: boolean; last4: string }>('key:set', { key: service.apiKey });
    expect(status).toMatchObject({ set: true, last4: service.apiKey.slice(-4) });
    expect(await keytar.getPassword(keychainService, 'api-key:default')).toBe(service.apiKey);
    await until('the account to be marked as automated', () => service.admin.userAgent().automated);
    await until('the window to hear of the beat', () =>
      win().webContents.sent.some(([name, payload]) => name === 'heartbeat:state' && (payload as { status: string }).status === 'active'));
  });

  it('shows the automation state in the tray, and its menu pauses and resumes it', async () => {
    await until('the tray to say the listings are automated', () => tray().tooltip.includes('Listings marked as automated'));
    expect(tray().labels()).toContain('Pause automation');
    tray().clickItem('toggle-automation');
    await until('the tray to say paused', () => tray().tooltip.includes('Automation paused'));
    expect(tray().labels()).toContain('Resume automation');
    tray().clickItem('toggle-automation');
    await until('the tray to say automated again', () => tray().tooltip.includes('Listings marked as automated'));
  });

  it('turns a trade needing action into one notification whose click shows the trade', async () => {
    const threeDaysAgo = Math.floor(clock.now() / 1000) - 3 * 86_400;
    const trade = service.admin.addTrade({
      trade_type: 'market',
      status: 'Action Required',
      partner_steam_creation_time: threeDaysAgo,
      total: 1234,
      items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 1234, quality: 'Unique', image_url: '', particle_url: '' }],
    });
    await invoke('trades:checkNow');
    await until('a notification', () => Notification.instances.length > 0);
    await invoke('trades:checkNow');
    expect(Notification.instances).toHaveLength(1);
    const [note] = Notification.instances;
    expect(note?.shown).toBe(true);
    expect(note?.options.title).toBe('Accept a trade: you sold an item');
    expect(note?.options.body).toContain('Team Captain');
    expect(note?.options.body).toMatch(/partner's account is 3 days old/i);

    // With the window open, the click brings it forward and tells its page where to go.
    note?.click();
    expect(win()).toMatchObject({ visible: true, focused: true });
    expect(win().webContents.sent).toContainEqual(['app:navigate', { view: 'trades', tradeId: trade.trade_id }]);
    // Closed to the tray, there is no page to tell: a new window opens at the trade.
    const closed = win();
    closed.close();
    expect(closed.destroyed).toBe(true);
    note?.click();
    await until('a new window', () => BrowserWindow.instances.length === 2 && win().visible);
    expect(win()).not.toBe(closed);
    expect(win().loadedUrl).toBe(`app://desk/index.html#/trades?trade=${trade.trade_id}`);
  });

  it('destroys the window and its renderer when it is closed to the tray; the desk goes on; a second launch opens a new one', async () => {
    const closed = win();
    const windows = BrowserWindow.instances.length;
    closed.close();
    expect(closed).toMatchObject({ visible: false, destroyed: true });
    expect(closed.webContents.isDestroyed()).toBe(true);
    expect(BrowserWindow.getAllWindows()).toEqual([]);
    expect(app.exitCode).toBeNull();
    expect(tray().destroyed).toBe(false);
    // The desk answers with no window open: the heartbeat and the trade watcher run in the data worker.
    expect(await invoke<{ status: string }>('heartbeat:state')).toMatchObject({ status: 'active' });
    app.emit('second-instance', {}, ['/opt/marketplace-desk/marketplace-desk'], '/home/trader');
    await until('a new window to show', () => BrowserWindow.instances.length === windows + 1 && win().visible);
    expect(win()).toMatchObject({ focused: true, loadedUrl: 'app://desk/index.html', destroyed: false });
    // The tray's Open opens one just the same.
    win().close();
    tray().clickItem('open');
    await until('the tray to open a window', () => BrowserWindow.instances.length === windows + 2 && win().visible);
  });

  it('beats at once after a resume from sleep, and when the network comes back', async () => {
    // Each wake must beat before the heartbeat's own next beat was due: that one is not the wake's.
    const nextBeat = async () => (await invoke<{ nextBeatAt: number | null }>('heartbeat:state')).nextBeatAt ?? Infinity;
    const beatBefore = async (what: string, after: number, due: number) => {
      await until(what, () => beats() > after);
      expect(lastBeatAt(), `${what} came only with the scheduled beat`).toBeLessThan(due);
    };
    const before = beats();
    const dueAtResume = await nextBeat();
    powerMonitor.emit('resume');
    await beatBefore('a beat after resume', before, dueAtResume);
    // The heartbeat endpoint allows one request a minute: let it pass, so the next wake can beat at once.
    const resumed = lastBeatAt();
    await until('a rate-limit minute to pass', () => clock.now() > resumed + 61_000);
    net.isOnline.mockReturnValue(false);
    const online = async () => (await invoke<{ online: boolean }>('app:status')).online;
    await until('the desk to see it is offline', async () => !(await online()));
    const offline = beats();
    const dueAtOnline = await nextBeat();
    net.isOnline.mockReturnValue(true);
    await beatBefore('a beat when back online', offline, dueAtOnline);
    expect(await online()).toBe(true);
  });

  it('reloads the window when its renderer crashes, and logs it', () => {
    const reloads = win().webContents.reloads;
    win().webContents.crash('crashed', 139);
    expect(win().webContents.reloads).toBe(reloads + 1);
    const last = running.log.recent(2_000).map((l) => JSON.parse(l) as Record<string, unknown>).at(-1);
    expect(last).toMatchObject({ level: 'error', msg: 'renderer process gone', reason: 'crashed', exitCode: 139, reloaded: true });
  });

  it('opens the logs folder and saves a diagnostics bundle without the key', async () => {
    await invoke('support:openLogsFolder');
    expect(shell.openPath).toHaveBeenCalledExactlyOnceWith(join(dir, 'user-data', 'logs'));
    dialog.nextSavePath = join(dir, 'diagnostics.json');
    expect(await invoke('support:saveDiagnostics')).toEqual({ saved: true, path: dialog.nextSavePath });
    const text = readFileSync(dialog.nextSavePath, 'utf8');
    for (const form of [service.apiKey, encodeURIComponent(service.apiKey)]) expect(text).not.toContain(form);
    const bundle = JSON.parse(text) as Record<string, unknown>;
    expect(bundle).toMatchObject({
      versions: { app: '0.1.0' },
      settings: { mode: 'live', autoUpdate: true },
      key: { set: true },
      rateBudget: { limit: 80 },
      heartbeat: { status: 'active' },
      updates: { state: 'off' },
    });
    expect((bundle.logs as string[]).some((l) => l.includes('"msg":"starting"'))).toBe(true);
    dialog.nextSavePath = null;
    expect(await invoke('support:saveDiagnostics')).toEqual({ saved: false, path: null });
  });

  it('keeps the key out of the logs, the activity log, the database files and the diagnostics when a refusal echoes it encoded', async () => {
    const key = service.apiKey;
    const hex = Buffer.from(key).toString('hex');
    // The forms the knob writes, and the key's base64 at each alignment (what survives of any of them).
    const forms = [key, hex, hex.toUpperCase(), ...['', 'a', 'ab', 'desk:', 'k='].flatMap((p) => {
      const b64 = Buffer.from(p + key).toString('base64');
      return [b64.slice(8, 36), Buffer.from(p + key).toString('base64url').slice(8, 36)];
    })];
    service.faults.set({ echoKeyEncoded: { endpoints: ['create_listing'] } });
    const draft = await invoke<{ id: string }>('drafts:create', { name: 'Echo test' });
    await invoke('drafts:addChanges', { changes: [{ kind: 'listing.create', asset_id: '99999999999', price: 500, promoted: 0, game: '440' }] });
    await invoke('drafts:apply', { draftId: draft.id });
    await until('the refusal to reach the activity log', async () =>
      (await invoke<Array<{ outcome: string }>>('activity:list', { limit: 5 })).some((a) => a.outcome === 'failed'));
    await until('the apply to end', async () => ['done', 'failed', 'stopped'].includes((await invoke<{ job: { state: string } | null }>('apply:state')).job?.state ?? ''));
    service.faults.set({ echoKeyEncoded: false });
    expect(service.log.requests.filter((r) => r.faults.includes('echoKeyEncoded')).length).toBeGreaterThan(0);

    const dbPath = join(dir, 'user-data', 'profiles', 'default.sqlite');
    // The activity log's rows as stored (the bridge shows a summary; the row keeps the refusal's body).
    const reader = new DatabaseSync(dbPath, { readOnly: true });
    const rows = JSON.stringify(reader.prepare('SELECT * FROM activity_log').all());
    reader.close();
    const activity = rows + JSON.stringify(await invoke('activity:list', { limit: 50 }));
    const files = [dbPath, `${dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1'));
    dialog.nextSavePath = join(dir, 'echo-diagnostics.json');
    await invoke('support:saveDiagnostics');
    dialog.nextSavePath = null;
    const logsDir = join(dir, 'user-data', 'logs');
    const places = {
      activity,
      logs: running.log.recent(2_000).join('\n'),
      logFiles: readdirSync(logsDir).map((f) => readFileSync(join(logsDir, f), 'utf8')).join(''),
      database: files.join(''),
      diagnostics: readFileSync(join(dir, 'echo-diagnostics.json'), 'utf8'),
    };
    for (const [place, text] of Object.entries(places)) {
      for (const form of forms) expect(text, `${place} holds ${form === key ? 'the key' : 'an encoding of the key'}`).not.toContain(form);
      expect(text.replace(/\\r\\n|\r\n/g, ''), `${place} holds the key's base64 over lines`).not.toContain(Buffer.from(key).toString('base64').slice(4, 32));
    }
  });

  it('pushes every event the router emits to the window, and no other', () => {
    expect(routed.size).toBeGreaterThan(0);
    for (const event of routed) expect(sentEvents(), event).toContain(event);
    for (const event of sentEvents()) expect(EVENT_NAMES, event).toContain(event);
  });

  it('shows a running apply in the tray and taskbar; quit waits for the batch in flight, closes the store, and the next boot resumes', async () => {
    const assets = service.admin.inventory().slice(0, 700);
    // A new draft is the current one: edits go into it.
    const draft = await invoke<{ id: string }>('drafts:create', { name: 'Boot test' });
    await invoke('drafts:addChanges', {
      changes: assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 500, promoted: 0, game: a.game })),
    });
    // Each create takes half a second (30 s of service time): long enough to quit with one in flight.
    service.faults.set({ delayMs: { ms: 30_000, endpoints: ['create_listing'] } });
    await invoke('drafts:apply', { draftId: draft.id });

    // Five batches go at once (5 a minute); the tray and taskbar follow them.
    await until('five batches to land', () => service.admin.listings().length >= 500);
    await until('the tray to show the apply', () => tray().labels().some((l) => /^Applying 500 of 700 items/.test(l)));
    expect(tray().tooltip).toMatch(/Applying 500 of 700 items \(71%\)/);
    expect(win().progress.at(-1)).toEqual([500 / 700, { mode: 'normal' }]);

    // The sixth waits a rate-limit minute; quit while it is on its way (the seventh may be with it).
    // The live ledger is the profile's own file; read beside the worker (WAL lets a reader in).
    const dbPath = join(dir, 'user-data', 'profiles', 'default.sqlite');
    await until('the sixth batch to be sent', () => batchesInFlight(dbPath) > 0);
    await quitFromTray();
    expect(app.exitCode).toBe(0);
    // The sixth batch, and the seventh when it fell due at the same moment, landed before the exit.
    expect([600, 700]).toContain(service.admin.listings().length);
    // Closed cleanly: the write-ahead log was checkpointed into the database.
    expect(!existsSync(`${dbPath}-wal`) || statSync(`${dbPath}-wal`).size === 0, 'WAL left behind').toBe(true);

    // Next boot, at login: the app starts in the tray with no window, and the journal resumes where it
    // stopped; nothing is sent twice and nothing is unknown.
    service.faults.clear();
    running = await boot(['--hidden']);
    expect(BrowserWindow.instances).toEqual([]);
    await until('the resumed apply to finish', async () => service.admin.listings().length === 700 && (await invoke<{ job: { state: string } | null }>('apply:state')).job?.state === 'done', 20_000);
    expect(service.log.counters.duplicateCreates).toBe(0);
    expect(await invoke<{ outcomes: unknown[] }>('apply:unknownOutcomes')).toMatchObject({ outcomes: [] });
    expect(await invoke('ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 1 })).toMatchObject({ total: 700 });
    // Opened from the tray, the window shows the taskbar as the desk is: the apply is over.
    tray().clickItem('open');
    await until('the window to open', () => BrowserWindow.instances.length === 1 && win().visible);
    await until('the taskbar bar to clear', () => win().progress.at(-1)?.[0] === -1);
  });

  it('does not announce the same trade again after the restart', async () => {
    await invoke('trades:checkNow');
    expect(Notification.instances).toHaveLength(0);
  });

  it('quits, leaving log files within their bounds that name what happened and hold no key', async () => {
    const logsDir = join(dir, 'user-data', 'logs');
    await quitFromTray();
    const files = readdirSync(logsDir);
    expect(files.length).toBeGreaterThan(1);
    expect(files.length).toBeLessThanOrEqual(LOG_FILES);
    const text = files.map((f) => {
      expect(statSync(join(logsDir, f)).size, f).toBeLessThanOrEqual(LOG_FILE_BYTES);
      return readFileSync(join(logsDir, f), 'utf8');
    }).join('');
    for (const form of [service.apiKey, encodeURIComponent(service.apiKey)]) expect(text).not.toContain(form);
    expect(text).toMatch(/"msg":"closed"/);
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  });
});
