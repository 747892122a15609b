import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { memoryKeychain } from './memory-keychain.ts';

/**
 * For test files: `const start = liveDeskFixture()`; each test gets the whole
 * desk in live mode, its key already in a memory keychain, against the
 * simulator over HTTP on one scaled clock (a minute lasts 60/scale s), all
 * closed after the test.
 */
export function liveDeskFixture(): (scale: number) => Promise<{ clock: Clock; sandbox: Sandbox; desk: Desk }> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async (scale) => {
    const clock = scaledClock(scale);
    const sandbox = await startSandbox({ clock, tradeSchedule: false, inventorySize: 100 });
    cleanups.push(() => sandbox.close());
    const dataDir = mkdtempSync(join(tmpdir(), 'live-desk-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const secrets = memoryKeychain();
    await secrets.set('api-key:default', sandbox.apiKey);
    const desk = await createDesk({ dataDir, secrets, clock, version: 'test', initialSettings: { mode: 'live', serviceUrl: sandbox.url }, inventoryUrl: sandbox.url });
    cleanups.push(() => desk.close());
    return { clock, sandbox, desk };
  };
}
