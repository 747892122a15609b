import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import { createRepos, openStore } from '../../../src-main/core/store/index.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';
import { deskTestScope } from './desk-fixture.ts';

/**
 * Settings apply live, and a change of service opens the new workspace before
 * the old one closes, keeping the old one when the new one cannot open.
 */
const { opened, tempDir } = deskTestScope('desk-settings-');

async function liveDesk(dataDir = tempDir()): Promise<{ d: Desk; service: Sandbox; dataDir: string }> {
  const clock = scaledClock(30);
  const service = await startSandbox({ clock, seed: 21 });
  opened.push(service);
  const d = await createDesk({ dataDir, clock, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: service.url } });
  opened.push(d);
  await d.keys.set(service.apiKey);
  // Settled: the accounts are read and the last beat covered the linked ones (no beat left in flight).
  const ws = d.workspace();
  await until('first beat covering the linked accounts', () => {
    const hb = ws.heartbeat.state;
    return ws.accounts.snapshot().main !== null && hb.status === 'active' && hb.nextBeatAt !== null
      && hb.accounts.length === ws.accounts.automatedLinked().length;
  });
  await ws.trades.checkNow();
  return { d, service, dataDir };
}

describe('settings that apply live', () => {
  it('changing the heartbeat interval, poll interval or young-account age keeps the trades and sends nothing', async () => {
    const { d, service } = await liveDesk();
    const ws = d.workspace();
    const trades = ws.trades.trades().length;
    expect(trades).toBeGreaterThan(0);
    const before = service.log.counters.requests;
    const planned = ws.heartbeat.state.nextBeatAt ?? 0;
    await d.updateSettings({ heartbeatIntervalMinutes: 7, tradePollSeconds: 120, youngAccountDays: 0 });
    expect(d.workspace()).toBe(ws);
    expect(ws.trades.trades()).toHaveLength(trades);
    // No one is younger than 0 days: the flags were recomputed from the trades on hand.
    expect(ws.trades.trades().every((t) => !t.youngPartner)).toBe(true);
    // The next beat moved later, planned from the last one (7 min, or the 3 minutes' margin before expiry, if sooner).
    expect((ws.heartbeat.state.nextBeatAt ?? 0) - planned).toBeGreaterThan(60_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(service.log.counters.requests).toBe(before);
    expect(service.log.counters.count429).toBe(0);
  });
});

describe('changing the service', () => {
  it('refuses a live URL that is not https (or loopback http) before anything changes', async () => {
    const { d } = await liveDesk();
    const ws = d.workspace();
    await expect(d.updateSettings({ serviceUrl: 'http://market.example' })).rejects.toMatchObject({
      kind: 'invalid', message: expect.stringMatching(/must use https/),
    });
    await expect(d.updateSettings({ serviceUrl: 'not a url' })).rejects.toMatchObject({ kind: 'invalid' });
    expect(d.workspace()).toBe(ws);
    expect(d.settings.get().serviceUrl).toBe(ws.baseUrl);
    expect(d.status().serviceProblem).toBeNull();
  });

  it('keeps the working workspace when the new one cannot open, and says why', async () => {
    const { d } = await liveDesk();
    const ws = d.workspace();
    const draft = ws.drafts.create('kept');
    // This desk was built without a simulator, so sandbox mode cannot open.
    await expect(d.updateSettings({ mode: 'sandbox' })).rejects.toMatchObject({ kind: 'conflict', message: expect.stringMatching(/stays on the live service/) });
    expect(d.workspace()).toBe(ws);
    expect(d.settings.get().mode).toBe('live');
    expect(d.status().serviceProblem).toMatch(/Could not switch to sandbox mode/);
    // Still working: the store is open, the draft is there, the heartbeat runs.
    expect(ws.drafts.list().map((x) => x.id)).toContain(draft.id);
    expect(ws.heartbeat.state.status).toBe('active');
  });

  it('opens an unreachable https service, and the desk keeps working offline', async () => {
    const { d } = await liveDesk();
    const old = d.workspace();
    old.drafts.create('offline work');
    await d.updateSettings({ serviceUrl: 'https://127.0.0.1:9' });
    const ws = d.workspace();
    expect(ws).not.toBe(old);
    expect(ws.baseUrl).toBe('https://127.0.0.1:9');
    // Same live ledger file: the draft made against the other URL is there.
    expect(ws.drafts.list().map((x) => x.name)).toContain('offline work');
    expect(ws.tables.page('listings', {}, null, 0, 10).total).toBe(0);
  });

  it('still starts with a saved URL it cannot use, and says so', async () => {
    const dataDir = tempDir();
    // As an older version could have left it: a plain-http live URL in the profile.
    const home = openStore(join(dataDir, 'default.sqlite'));
    createRepos(home).settings.set('app.settings', { mode: 'live', serviceUrl: 'http://market.example' });
    home.close();
    const d = await createDesk({ dataDir, secrets: memoryKeychain(), version: 't' });
    opened.push(d);
    // The unusable URL is never used: the default stands in, and the desk says why.
    expect(d.status()).toMatchObject({ mode: 'live', serviceProblem: expect.stringMatching(/saved service URL must use https/) });
    expect(d.workspace().baseUrl).not.toBe('http://market.example');
    d.workspace().drafts.create('still here');
    // Fixing the URL clears the problem.
    const service = await startSandbox({ seed: 22 });
    opened.push(service);
    await d.updateSettings({ serviceUrl: service.url });
    expect(d.status().serviceProblem).toBeNull();
  });

  it('in sandbox mode keeps a new live URL for going live, without reopening the simulator', async () => {
    const d = await createDesk({ dataDir: tempDir(), secrets: memoryKeychain(), version: 't', openSandbox: (clock) => startSandbox({ clock, seed: 23 }) });
    opened.push(d);
    const ws = d.workspace();
    const draft = ws.drafts.create('exploring');
    await d.updateSettings({ serviceUrl: 'https://127.0.0.1:9' });
    expect(d.workspace()).toBe(ws);
    expect(ws.drafts.list().map((x) => x.id)).toContain(draft.id);
    expect(d.settings.get()).toMatchObject({ mode: 'sandbox', serviceUrl: 'https://127.0.0.1:9' });
    // Going live then goes there.
    await d.updateSettings({ mode: 'live' });
    expect(d.workspace().baseUrl).toBe('https://127.0.0.1:9');
  });
});
