import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import type { Settings } from '../../src-main/core/settings/settings.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import type { BalanceView, EventName, KeyStatus } from '../../src-shared/contract.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { call } from './live-desk.ts';

/**
 * The first run over the app's router (outputs checked against the contract):
 * "Test key" in both modes, the key's status carrying the last test, the
 * balance's read state, and live screens never fed the sandbox's balance.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function liveService(clock: Clock, seed = 51): Promise<Sandbox> {
  const s = await startSandbox({ clock, seed, tradeSchedule: false, inventorySize: 10 });
  cleanups.push(() => s.close());
  return s;
}

async function routed(clock: Clock, initialSettings: Partial<Settings>): Promise<{ desk: Desk; router: Router; events: Array<{ event: EventName; payload: unknown }> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'first-run-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const desk = await createDesk({
    dataDir, clock, secrets: memoryKeychain(), version: 't', initialSettings,
    openSandbox: (c) => startSandbox({ clock: c, seed: 52, tradeSchedule: false, inventorySize: 10 }),
  });
  cleanups.push(() => desk.close());
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
  const events: Array<{ event: EventName; payload: unknown }> = [];
  router.subscribe((event, payload) => events.push({ event, payload }));
  return { desk, router, events };
}

async function until<T>(read: () => T | null | undefined | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const lastOf = <T>(events: Array<{ event: EventName; payload: unknown }>, name: EventName) =>
  events.filter((e) => e.event === name).at(-1)?.payload as T | undefined;

describe('key:test', () => {
  it('in sandbox mode tests the key against the live service; key:status then carries the result, never the key', async () => {
    const clock = scaledClock(1);
    const live = await liveService(clock);
    const { router, events } = await routed(clock, { mode: 'sandbox', serviceUrl: live.url });
    await call(router, 'key:set', { key: live.apiKey });
    const status = await call(router, 'key:test', {});
    expect(status).toMatchObject({ set: true, state: 'valid', test: { outcome: 'accepted', mode: 'sandbox', mainAccount: live.accounts.main } });
    expect(await call(router, 'key:status', {})).toMatchObject({ test: { outcome: 'accepted' } });
    // The screen that did not ask hears of it too.
    await until(() => lastOf<KeyStatus>(events, 'key:status')?.test?.outcome === 'accepted', 'the pushed key status');
    const text = JSON.stringify([status, events]);
    for (let i = 0; i + 8 <= live.apiKey.length; i += 1) expect(text).not.toContain(live.apiKey.slice(i, i + 8));
  });

  it('answers with "no key" at once when none is stored', async () => {
    const clock = scaledClock(1);
    const live = await liveService(clock);
    const { router } = await routed(clock, { mode: 'live', serviceUrl: live.url });
    expect(await call(router, 'key:test', {})).toMatchObject({ set: false, state: 'none', test: { outcome: 'no_key' } });
  });
});

describe('the balance view', () => {
  it('carries how reading the balance goes, pushed as it changes: retrying, when, and why', async () => {
    const clock = scaledClock(1);
    const live = await liveService(clock);
    live.faults.set({ serverError: { status: 503, endpoints: ['get_balance'] } });
    const { router, events } = await routed(clock, { mode: 'live', serviceUrl: live.url });
    await call(router, 'key:set', { key: live.apiKey });
    const pushed = await until(() => {
      const view = lastOf<BalanceView>(events, 'balance:changed');
      return view?.read?.phase === 'retrying' ? view : null;
    }, 'a pushed balance view that says it retries');
    expect(pushed.reading).toBeNull();
    expect(pushed.read).toMatchObject({ phase: 'retrying', failures: expect.any(Number), lastError: { kind: 'server' } });
    expect(pushed.read?.nextAttemptAt).toBeGreaterThan(clock.now());
    expect((await call(router, 'balance:get', {})).read?.phase).toBe('retrying');
    live.faults.clear();
  });
});

describe('a switch from sandbox to live', () => {
  it('never leaves the sandbox balance on a live screen, even when the live service cannot be reached', async () => {
    const clock = scaledClock(1);
    const { desk, router, events } = await routed(clock, { mode: 'sandbox', serviceUrl: 'http://127.0.0.1:9' });
    const sandboxBalance = await until(() => desk.workspace().trades.balance(), 'the sandbox balance');
    expect((await call(router, 'balance:get', {})).reading).toMatchObject({ balance: sandboxBalance.balance });
    // A refresh asked in sandbox mode whose answer comes after the switch.
    const late = router.invoke('balance:refresh', {});
    await call(router, 'settings:update', { mode: 'live' });
    await late;
    const after = await call(router, 'balance:get', {});
    expect(after.reading).toBeNull();
    const pushed = lastOf<BalanceView>(events, 'balance:changed');
    expect(pushed?.reading).toBeNull();
    expect(pushed?.stamp).toBeGreaterThanOrEqual(after.stamp);
    // Whatever came after the switch said "not read": no event or reply carried the sandbox's figure later.
    const switchedAt = events.findIndex((e) => e.event === 'app:status' && (e.payload as { mode: string }).mode === 'live');
    const later = events.slice(switchedAt).filter((e) => e.event === 'balance:changed').map((e) => (e.payload as BalanceView).reading);
    expect(later.every((r) => r === null)).toBe(true);
  });
});
