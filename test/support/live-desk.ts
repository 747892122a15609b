import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import type { SettingsPatch } from '../../src-main/core/settings/settings.ts';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src-main/sandbox/index.ts';
import type { EventName } from '../../src-shared/contract.ts';
import { memoryKeychain } from './memory-keychain.ts';
import { steppingClock, type SteppingClock } from './wall-step.ts';

/**
 * For test files: `const start = liveDeskFixture()`; each test gets the whole
 * desk in live mode, its key already in a memory keychain, against the
 * simulator over HTTP on one scaled clock (a minute lasts 60/scale s), all
 * closed after the test. The desk reads that clock through one whose wall
 * time the test may step (`clock.stepWall`); the simulator's does not step.
 */
export function liveDeskFixture(): (scale: number) => Promise<{ clock: SteppingClock; serviceClock: Clock; sandbox: Sandbox; desk: Desk }> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async (scale) => {
    const serviceClock = scaledClock(scale);
    const clock = steppingClock(serviceClock);
    const sandbox = await startSandbox({ clock: serviceClock, tradeSchedule: false, inventorySize: 100 });
    cleanups.push(() => sandbox.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'live-desk-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const secrets = memoryKeychain();
    await secrets.set('api-key:default', sandbox.apiKey);
    const desk = await createDesk({ dataDir, secrets, clock, version: 'test', initialSettings: { mode: 'live', serviceUrl: sandbox.url }, inventoryUrl: sandbox.url, pricedbUrl: sandbox.pricedb.url });
    cleanups.push(() => desk.close());
    return { clock, serviceClock, sandbox, desk };
  };
}

/** What a test of the bridge holds: the app's router over a live desk, every event it pushed, and the simulator behind. */
export interface RouterDesk {
  readonly router: Router;
  readonly desk: Desk;
  readonly service: Sandbox;
  readonly events: Array<{ event: EventName; payload: unknown }>;
}

/**
 * For test files of the bridge: `const open = routerDeskFixture('name-')`;
 * each test gets the app's router (outputs checked) over a desk in live mode
 * against the simulator on one scaled clock, its key set through the router
 * and its accounts read, all closed after the test.
 */
export function routerDeskFixture(prefix: string): (options: {
  scale: number;
  sandbox?: Omit<SandboxOptions, 'clock'>;
  settings?: SettingsPatch;
}) => Promise<RouterDesk> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async ({ scale, sandbox, settings }) => {
    const dataDir = mkdtempSync(join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const clock = scaledClock(scale);
    const service = await startSandbox({ ...sandbox, clock });
    cleanups.push(() => service.close());
    const desk = await createDesk({
      dataDir, clock, secrets: memoryKeychain(), version: 't',
      initialSettings: { mode: 'live', serviceUrl: service.url, ...settings }, inventoryUrl: service.url, pricedbUrl: service.pricedb.url,
    });
    cleanups.push(() => desk.close());
    const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
    const events: RouterDesk['events'] = [];
    router.subscribe((event, payload) => events.push({ event, payload }));
    await router.invoke('key:set', { key: service.apiKey });
    // Setting a key makes the desk read the accounts (get_linked_trade_urls allows one a minute).
    const ws = desk.workspace();
    await new Promise<void>((resolve) => {
      if (ws.accounts.snapshot().main) resolve();
      else ws.accounts.on('changed', (s) => s.main && resolve());
    });
    return { router, desk, service, events };
  };
}
