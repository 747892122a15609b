import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock, type Clock } from '../../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../../src-main/core/desk/desk.ts';
import type { Settings } from '../../../src-main/core/settings/settings.ts';
import { createKeyService } from '../../../src-main/core/key/key-service.ts';
import { createKeyProbes } from '../../../src-main/core/key/key-probe.ts';
import { createKeyTester } from '../../../src-main/core/key/key-test.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';

/**
 * "Test key" against the simulator over HTTP, through the real desk and
 * scheduler: in live mode it asks the live service through the workspace; in
 * sandbox mode it still asks the live service (the key is that service's),
 * never the simulator, and its verdict sticks to the key.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function service(clock: Clock, seed = 31): Promise<Sandbox> {
  const s = await startSandbox({ clock, seed, tradeSchedule: false, inventorySize: 10 });
  cleanups.push(() => s.close());
  return s;
}

async function deskWith(clock: Clock, initialSettings: Partial<Settings>): Promise<Desk> {
  const dataDir = mkdtempSync(join(tmpdir(), 'key-test-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const d = await createDesk({
    dataDir, clock, secrets: memoryKeychain(), version: 't', initialSettings,
    openSandbox: (c) => startSandbox({ clock: c, seed: 99, tradeSchedule: false, inventorySize: 10 }),
  });
  cleanups.push(() => d.close());
  return d;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sent = (s: Sandbox, endpoint: string) => s.log.requests.filter((r) => r.endpoint === endpoint).length;
const sorted = (ids: readonly string[]) => [...ids].sort();

describe('Test key in live mode', () => {
  it('names the account, its linked accounts and the balance, joining the reads that saving the key started', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'live', serviceUrl: live.url });
    await d.keys.set(live.apiKey);
    const result = await d.keyTest.test();
    expect(result).toMatchObject({
      outcome: 'accepted',
      mode: 'live',
      serviceUrl: live.url,
      last4: live.apiKey.slice(-4),
      mainAccount: live.accounts.main,
      balance: live.admin.balance(),
      problem: null,
    });
    expect(sorted(result.linkedAccounts)).toEqual(sorted(live.accounts.linked));
    // Asked again at once: the minute-old answers stand in, so the once-a-minute accounts read is not spent twice.
    const again = await d.keyTest.test();
    expect(again.outcome).toBe('accepted');
    expect(sent(live, 'get_linked_trade_urls')).toBe(1);
    expect(live.log.counters.count429).toBe(0);
    expect(d.keyTest.last()).toEqual(again);
  });

  it('asks the service again once the last answer is a minute old, without a 429', async () => {
    const clock = scaledClock(60);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'live', serviceUrl: live.url });
    await d.keys.set(live.apiKey);
    await d.keyTest.test();
    await clock.sleep(61_000);
    const later = await d.keyTest.test();
    expect(later.outcome).toBe('accepted');
    expect(sent(live, 'get_linked_trade_urls')).toBe(2);
    expect(live.log.counters.count429).toBe(0);
  });

  it('says there is no key, and sends nothing', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'live', serviceUrl: live.url });
    const result = await d.keyTest.test();
    expect(result).toMatchObject({ outcome: 'no_key', last4: null, mainAccount: null, balance: null });
    expect(live.log.requests).toHaveLength(0);
  });

  it('says the key was rejected (401) or the account refused (403)', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'live', serviceUrl: live.url });
    await d.keys.set(live.keys.revoked);
    expect((await d.keyTest.test()).outcome).toBe('rejected');
    await d.keys.set(live.keys.forbidden);
    expect((await d.keyTest.test()).outcome).toBe('forbidden');
  });

  it('says the service cannot be reached, and why, within the interactive deadline', async () => {
    const clock = scaledClock(1);
    const url = `http://127.0.0.1:${await closedPort()}`;
    const d = await deskWith(clock, { mode: 'live', serviceUrl: url });
    await d.keys.set('sk_live_unreachable_0042');
    const started = Date.now();
    const result = await d.keyTest.test();
    expect(Date.now() - started).toBeLessThan(31_000);
    expect(result).toMatchObject({ outcome: 'unreachable', serviceUrl: url, mainAccount: null, balance: null });
    expect(result.unreachableWhy).toMatch(/\w/);
    expect(result.problem?.kind).toBe('network');
  });

  it('never carries the key, even when the service quotes it back in an error', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'live', serviceUrl: live.url });
    live.faults.set({ echoKey: true, serverError: { status: 500, endpoints: ['get_balance'] } });
    await d.keys.set(live.apiKey);
    const result = await d.keyTest.test();
    expect(result.outcome).toBe('accepted');
    expect(result.problem?.kind).toBe('server');
    const text = JSON.stringify(result);
    for (let i = 0; i + 8 <= live.apiKey.length; i += 1) expect(text).not.toContain(live.apiKey.slice(i, i + 8));
  });
});

describe('Test key in sandbox mode', () => {
  it('tests the stored key against the live service, not the simulator, and the verdict sticks to the key', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'sandbox', serviceUrl: live.url });
    await d.keys.set(live.apiKey);
    expect((await d.keys.status()).state).toBe('unverified');
    const result = await d.keyTest.test();
    expect(result).toMatchObject({ outcome: 'accepted', mode: 'sandbox', serviceUrl: live.url, mainAccount: live.accounts.main, balance: live.admin.balance() });
    expect((await d.keys.status()).state).toBe('valid');
    // The desk stays in sandbox mode, and the simulator's ledger never learns the live account.
    expect(d.status().mode).toBe('sandbox');
    expect(d.workspace().accounts.ownIds()).not.toContain(live.accounts.main);
    // Once more at once: the answers of a minute ago stand in (the accounts list may be read once a minute).
    await d.keyTest.test();
    expect(sent(live, 'get_linked_trade_urls')).toBe(1);
    expect(sent(live, 'get_balance')).toBe(1);
    expect(live.log.counters.count429).toBe(0);
  });

  it('marks a revoked key rejected, and a replaced key is tested afresh', async () => {
    const clock = scaledClock(1);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'sandbox', serviceUrl: live.url });
    await d.keys.set(live.keys.revoked);
    expect((await d.keyTest.test()).outcome).toBe('rejected');
    expect((await d.keys.status()).state).toBe('rejected');
    await d.keys.set(live.apiKey);
    expect(d.keyTest.last()).toBeNull();
    expect((await d.keyTest.test()).outcome).toBe('accepted');
    expect((await d.keys.status()).state).toBe('valid');
  });

  it('follows a change of the live URL without reopening the sandbox', async () => {
    const clock = scaledClock(1);
    const first = await service(clock, 41);
    const second = await service(clock, 42);
    const d = await deskWith(clock, { mode: 'sandbox', serviceUrl: first.url });
    const workspace = d.workspace();
    await d.keys.set(second.apiKey);
    expect((await d.keyTest.test()).outcome).toBe('rejected');
    await d.updateSettings({ serviceUrl: second.url });
    expect(d.workspace()).toBe(workspace);
    // The last result was about the other service.
    expect(d.keyTest.last()).toBeNull();
    const result = await d.keyTest.test();
    expect(result).toMatchObject({ serviceUrl: second.url, mainAccount: second.accounts.main });
  });

  it('going live right after a test spends no request on a 429: the live workspace knows the slots the test used', async () => {
    const clock = scaledClock(30);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'sandbox', serviceUrl: live.url });
    await d.keys.set(live.apiKey);
    expect((await d.keyTest.test()).outcome).toBe('accepted');
    await d.updateSettings({ mode: 'live' });
    const ws = d.workspace();
    await ws.accounts.refresh().catch(() => undefined);
    for (let i = 0; i < 400 && ws.accounts.snapshot().main === null; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(ws.accounts.snapshot().main?.account_id).toBe(live.accounts.main);
    expect(live.log.counters.count429).toBe(0);
  });
});

describe('going live after a key test', () => {
  it('shows the accounts the test found at once, and the first beat covers every linked one', async () => {
    const clock = scaledClock(30);
    const live = await service(clock);
    const d = await deskWith(clock, { mode: 'sandbox', serviceUrl: live.url });
    await d.keys.set(live.apiKey);
    const tested = await d.keyTest.test();
    expect(tested).toMatchObject({ outcome: 'accepted', mainAccount: live.accounts.main });
    expect(tested.linkedAccounts).toHaveLength(3);
    await d.updateSettings({ mode: 'live' });
    const ws = d.workspace();
    // Before the live workspace could read the list itself (its one read a minute went to the test).
    expect(sent(live, 'get_linked_trade_urls')).toBe(1);
    const snapshot = ws.accounts.snapshot();
    expect(snapshot.main?.account_id).toBe(live.accounts.main);
    expect(sorted(snapshot.linked.map((a) => a.account_id))).toEqual(sorted(live.accounts.linked));
    expect(sorted(ws.accounts.automatedLinked())).toEqual(sorted(live.accounts.linked));
    for (let i = 0; i < 400 && ws.heartbeat.state.lastBeatAt === null; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(sorted(ws.heartbeat.state.accounts)).toEqual(sorted(live.accounts.linked));
    expect(live.accounts.linked.every((a) => live.admin.userAgent(a).automated)).toBe(true);
  });
});

describe('a key test that cannot be sent', () => {
  it('answers with what stopped it (an unusable URL) and can be asked again, instead of throwing or sticking', async () => {
    const clock = scaledClock(1);
    const keys = createKeyService({ secrets: memoryKeychain(), profile: 'default' });
    await keys.set('sk_live_cannot_go_0001');
    const probes = createKeyProbes({ keys, clock });
    const tester = createKeyTester({ keys, clock, target: (since) => probes.target('http://203.0.113.9', since) });
    const first = await tester.test();
    expect(first).toMatchObject({ outcome: 'failed', problem: { kind: 'invalid' }, mainAccount: null });
    expect((await tester.test()).outcome).toBe('failed');
    tester.dispose();
    await probes.close();
  });
});
