import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { openWorkspace, type Workspace } from '../../../src-main/core/desk/workspace.ts';
import { DEFAULT_SETTINGS } from '../../../src-main/core/settings/settings.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { until } from '../../support/until.ts';

/**
 * A live workspace over its own simulator, on a clock where a service minute
 * lasts 0.1 s, started and knowing its accounts; closed after each test.
 */
export function sandboxWorkspaces(prefix: string): (seed: number) => Promise<{ ws: Workspace; sandbox: Sandbox; dbPath: string }> {
  const clock = scaledClock(600);
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async (seed) => {
    const sandbox = await startSandbox({ clock, seed, inventorySize: 10, tradeSchedule: false });
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const dbPath = join(dir, 'profile.sqlite');
    const ws = openWorkspace({
      mode: 'live', dbPath, baseUrl: sandbox.url, clock,
      settings: { ...DEFAULT_SETTINGS, mode: 'live', serviceUrl: sandbox.url },
      apiKey: async () => sandbox.apiKey,
    });
    cleanups.push(async () => {
      await ws.close().catch(() => undefined);
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    });
    ws.start();
    await until('the accounts', () => ws.accounts.snapshot().linked.length > 0);
    return { ws, sandbox, dbPath };
  };
}
