import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';
import { deskTestScope } from './desk-fixture.ts';

const { opened, tempDir } = deskTestScope('desk-');

async function desk(options: Parameters<typeof createDesk>[0]): Promise<Desk> {
  const d = await createDesk(options);
  opened.push(d);
  return d;
}

describe('desk composition', () => {
  it('runs against the embedded sandbox without a key: heartbeat marks automation, trades load', async () => {
    const dataDir = tempDir();
    const d = await desk({ dataDir, secrets: memoryKeychain(), version: 'test', openSandbox: (clock) => startSandbox({ clock, seed: 3 }) });
    expect(d.status()).toMatchObject({ mode: 'sandbox', online: true });
    await until('heartbeat active', () => d.workspace().heartbeat.state.status === 'active');
    const refreshAt = d.workspace().heartbeat.state.refreshAt ?? 0;
    expect(refreshAt - Date.now()).toBeGreaterThan(500_000);
    await d.workspace().trades.checkNow();
    expect(d.workspace().trades.trades().length).toBeGreaterThan(0);
    // Simulator data lives in its own file, never in the live ledger.
    expect(existsSync(join(dataDir, 'default.sandbox.sqlite'))).toBe(true);
  });

  it('in live mode waits for a key, then unblocks, beats and marks the key valid', async () => {
    const service: Sandbox = await startSandbox({ seed: 5 });
    opened.push(service);
    const d = await desk({
      dataDir: tempDir(),
      secrets: memoryKeychain(),
      version: 'test',
      initialSettings: { mode: 'live', serviceUrl: service.url },
    });
    await until('auth error without key', () => d.workspace().heartbeat.state.lastError?.kind === 'auth');
    expect((await d.keys.status()).state).toBe('none');
    await d.keys.set(service.apiKey);
    await until('heartbeat active after key', () => d.workspace().heartbeat.state.status === 'active');
    await until('key valid', async () => (await d.keys.status()).state === 'valid');
    expect(service.admin.userAgent(service.accounts.main).automated).toBe(true);
  });

  it('marks a rejected key and blocks the work that needs it', async () => {
    const service = await startSandbox({ seed: 6 });
    opened.push(service);
    const secrets = memoryKeychain();
    const d = await desk({ dataDir: tempDir(), secrets, version: 'test', initialSettings: { mode: 'live', serviceUrl: service.url } });
    await d.keys.set(service.keys.revoked);
    await until('scheduler blocked', () => d.workspace().scheduler.state.blocked === 'auth');
    await until('key rejected', async () => (await d.keys.status()).state === 'rejected');
  });

  it('a good key replacing a rejected one unblocks the work, beats at once and clears the rejection everywhere', async () => {
    const service = await startSandbox({ seed: 6 });
    opened.push(service);
    const d = await desk({ dataDir: tempDir(), secrets: memoryKeychain(), version: 'test', initialSettings: { mode: 'live', serviceUrl: service.url } });
    await d.keys.set(service.keys.revoked);
    await until('the beat refused', () => d.workspace().heartbeat.state.lastError?.kind === 'auth');
    await until('key rejected', async () => (await d.keys.status()).state === 'rejected');
    const replaced = Date.now();
    await d.keys.set(service.apiKey);
    await until('heartbeat active after the good key', () => d.workspace().heartbeat.state.status === 'active', 3000);
    expect(d.workspace().heartbeat.state.lastError).toBeNull();
    expect(d.workspace().scheduler.state.blocked).toBeNull();
    await until('key valid', async () => (await d.keys.status()).state === 'valid', 3000);
    expect(Date.now() - replaced).toBeLessThan(3000);
  });

  it('switches mode by replacing the workspace and announcing it', async () => {
    const service = await startSandbox({ seed: 7 });
    opened.push(service);
    const d = await desk({ dataDir: tempDir(), secrets: memoryKeychain(), version: 'test', openSandbox: (clock) => startSandbox({ clock, seed: 8 }) });
    const first = d.workspace();
    const announced = new Promise((resolve) => d.events.on('workspace', resolve));
    await d.updateSettings({ mode: 'live', serviceUrl: service.url });
    await announced;
    expect(d.workspace()).not.toBe(first);
    expect(d.status()).toMatchObject({ mode: 'live', serviceUrl: service.url });
  });

  it('in live mode keeps the ledger on the connection the settings use, open across a switch to sandbox and back', async () => {
    const service = await startSandbox({ seed: 9 });
    opened.push(service);
    const d = await desk({
      dataDir: tempDir(), secrets: memoryKeychain(), version: 'test',
      initialSettings: { mode: 'live', serviceUrl: service.url },
      openSandbox: (clock) => startSandbox({ clock, seed: 10 }),
    });
    // SQLite's data_version moves when another connection commits to the file, and not for the reader's own commits.
    const dataVersion = () => z.object({ data_version: z.number() }).parse(d.workspace().store.db.prepare('PRAGMA data_version').get()).data_version;
    const before = dataVersion();
    await d.updateSettings({ tradePollSeconds: 120 });
    expect(dataVersion()).toBe(before);

    await d.updateSettings({ mode: 'sandbox' });
    await d.updateSettings({ mode: 'live', serviceUrl: service.url });
    // The live ledger reopened on the home database, which closing the first live workspace left open.
    expect(d.workspace().store.db.prepare('SELECT COUNT(*) AS n FROM listings').get()).toEqual({ n: 0 });
    expect((await d.updateSettings({ tradePollSeconds: 180 })).tradePollSeconds).toBe(180);
  });
});
