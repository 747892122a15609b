import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainSecretStore } from '../../src-main/main-thread/keychain.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import type { WorkerLogLine } from '../../src-main/core/data/desk-methods.ts';
import { call } from '../support/router-call.ts';
import { DESK_WORKER } from './desk-worker-entry.ts';
import { keychainServiceFor, until } from '../desktop/boot-support.ts';

/**
 * The desk in its worker thread, as the app runs it: the real worker entry
 * (`desk-worker.ts`), its SQLite profile, the keychain (gnome-keyring under
 * test/with-keyring.sh) and the built-in simulator of sandbox mode, driven
 * through the router main binds to the bridge.
 */

let dir: string;
let connection: DeskConnection;
const logged: WorkerLogLine[] = [];
const events: { event: string; payload: unknown }[] = [];
const opened: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-worker-'));
  const keychainService = keychainServiceFor(dir);
  expect(await createKeychainSecretStore({ service: keychainService }).state(), 'no Secret Service: run through test/with-keyring.sh').toBe('available');
  const line = (level: WorkerLogLine['level']) => (message: string, fields?: Record<string, unknown>) => void logged.push({ level, message, ...(fields ? { fields } : {}) });
  connection = await connectDesk({
    spawn: () => new Worker(DESK_WORKER),
    secrets: createKeychainSecretStore({ service: keychainService }),
    config: {
      dataDir: dir, version: 'test', clock: { scale: 60, origin: Date.now() },
      sandbox: { seed: 3, inventorySize: 300, tradeSchedule: false },
    },
    platform: { openLink: (url) => void opened.push(url) },
    log: { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') },
  });
  connection.router.subscribe((event, payload) => events.push({ event, payload }));
});

afterAll(async () => {
  await connection.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the desk in its worker thread', () => {
  it('answers the bridge, pushes its events and the shell’s view, and checks what it is sent', async () => {
    const status = await call(connection.router, 'app:status', {});
    expect(status.mode).toBe('sandbox');
    expect(status.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    // The heartbeat beats in the worker; the shell's view follows.
    await until('the sandbox account to be automated', () => connection.desk.view().tray.heartbeat === 'active');
    expect(events.some((e) => e.event === 'heartbeat:state')).toBe(true);
    expect(connection.desk.view().settings.heartbeatEnabled).toBe(true);

    // Bad input is refused in the worker with the router's words, not as a failure of the boundary.
    const refused = await connection.router.invoke('drafts:create', { name: 42 });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    const unknown = await connection.router.invoke('no:such', {});
    expect(unknown).toMatchObject({ ok: false, error: { kind: 'invalid', message: 'Unknown channel "no:such".' } });
    // The shell's channels are main's: here, with no updater, they say so.
    await expect(call(connection.router, 'updates:state', {})).resolves.toMatchObject({ state: 'off' });

    // A draft made through the worker is in its store.
    const { id } = await call(connection.router, 'drafts:create', { name: 'through the worker' });
    const drafts = await call(connection.router, 'drafts:list', {});
    expect(drafts.drafts.map((d) => d.id)).toContain(id);
    // Settings change in the worker, and the tray's view follows.
    await connection.desk.updateSettings({ notificationsEnabled: false });
    await until('the view to follow the settings', () => !connection.desk.view().settings.notificationsEnabled);
    expect(logged.some((l) => l.message === 'settings changed')).toBe(true);
    // Lines the worker wrote while it opened the desk reached main's log too.
    expect(logged.some((l) => l.message === 'workspace open')).toBe(true);
  });

  it('waits on a database file another process holds in the worker, never on the main thread, and ends in a clear busy error', async () => {
    // Another program holds the sandbox ledger's write lock past the store's busy timeout (5 s). It takes the lock
    // once a write of the desk's own (its services run on their own after the first page) has ended.
    const holder = new DatabaseSync(join(dir, 'default.sandbox.sqlite'), { timeout: 10_000 });
    holder.exec('BEGIN IMMEDIATE');
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    try {
      const started = performance.now();
      const answer = await connection.router.invoke('drafts:create', { name: 'while the file is locked' });
      const waited = performance.now() - started;
      expect(answer).toMatchObject({ ok: false, error: { kind: 'busy' } });
      expect(answer.ok ? '' : answer.error.message).toMatch(/in use|busy|try again/i);
      expect(waited).toBeGreaterThan(4_000);
    } finally {
      delay.disable();
      holder.exec('ROLLBACK');
      holder.close();
    }
    // The main thread ran its timers the whole time.
    expect(delay.max / 1e6).toBeLessThan(200);
    await expect(call(connection.router, 'drafts:create', { name: 'once the file is free' })).resolves.toMatchObject({ name: 'once the file is free' });
  });

  it('restarts a worker that died: the calls meanwhile are refused as busy, the screens are told, the store is intact', async () => {
    const before = await call(connection.router, 'drafts:list', {});
    const statusBefore = await call(connection.router, 'app:status', {});
    const states: string[] = [];
    const off = connection.desk.on('store', (s) => states.push(s));
    events.length = 0;
    await connection.kill();
    const during = await connection.router.invoke('drafts:list', {});
    // Either refused as the store restarts, or answered by the new worker already: never a hang or an internal failure.
    if (!during.ok) expect(during.error.kind).toBe('busy');
    await until('the worker to be back', () => connection.desk.storeState() === 'ready');
    off();
    expect(states).toEqual(['restarting', 'ready']);
    // Screens were told it restarts, then the new desk announced every area with newer stamps.
    const restarting = events.find((e) => e.event === 'app:status' && (e.payload as { store?: string }).store === 'restarting');
    expect(restarting).toBeDefined();
    await until('the new desk to announce itself', () => events.some((e) => e.event === 'app:status' && (e.payload as { store?: string }).store === undefined));
    const after = await call(connection.router, 'drafts:list', {});
    expect(after.drafts.map((d) => d.id)).toEqual(before.drafts.map((d) => d.id));
    const statusAfter = await call(connection.router, 'app:status', {});
    expect(statusAfter.stamp).toBeGreaterThan(statusBefore.stamp);
    expect(statusAfter.store).toBeUndefined();
    expect(logged.some((l) => l.message === 'data worker stopped')).toBe(true);
  });

  it('tells the screens the store restarts even when the worker dies before it pushed any status', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'desk-worker-fresh-'));
    const quiet = () => undefined;
    const early = await connectDesk({
      spawn: () => new Worker(DESK_WORKER),
      secrets: createKeychainSecretStore({ service: keychainServiceFor(fresh) }),
      config: { dataDir: fresh, version: 'test', clock: null, sandbox: { seed: 4, inventorySize: 10, tradeSchedule: false } },
      platform: { openLink: quiet },
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
    try {
      const pushed: { event: string; payload: unknown }[] = [];
      early.router.subscribe((event, payload) => pushed.push({ event, payload }));
      // A window that asked for the status, at once: the desk has pushed none yet (its services start after the first page).
      const status = await call(early.router, 'app:status', {});
      await early.kill();
      const restarting = pushed.find((e) => e.event === 'app:status' && (e.payload as { store?: string }).store === 'restarting');
      expect(restarting?.payload).toMatchObject({ stamp: status.stamp + 1 });
      await until('the worker to be back', () => early.desk.storeState() === 'ready');
    } finally {
      await early.close();
      await rm(fresh, { recursive: true, force: true });
    }
  });
});

