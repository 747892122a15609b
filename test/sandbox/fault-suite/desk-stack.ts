import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { scaledClock, type Clock } from '../../../src-main/core/clock.ts';
import { openWorkspace, type Workspace } from '../../../src-main/core/desk/workspace.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../../src-main/core/settings/settings.ts';
import { startSandbox, type Sandbox, type SandboxFaults, type SandboxOptions } from '../../../src-main/sandbox/index.ts';

/**
 * The fault suite's stack: a workspace as the app opens it (client,
 * scheduler, heartbeat, trade watcher, accounts, drafts, apply over a profile
 * file) against the simulator over HTTP, on one scaled clock. `faults` are
 * set before the workspace starts, so even its first requests meet them.
 */
export interface DeskStack {
  clock: Clock;
  sandbox: Sandbox;
  ws: Workspace;
  /** Resolves when `read` is truthy, polling on the real clock; fails after `ms` of sandbox time. */
  until<T>(read: () => T | null | undefined | false, what: string, ms?: number): Promise<T>;
  /** Waits `ms` of sandbox time. */
  wait(ms: number): Promise<void>;
  /** Until the main account is known and automation is active: an apply is allowed from then. */
  ready(): Promise<void>;
}

export interface DeskStackOptions {
  /** A minute of the service lasts 60/scale seconds. */
  scale: number;
  sandbox?: SandboxOptions;
  settings?: Partial<Settings>;
  faults?: Parameters<SandboxFaults['set']>[0];
  /** Start the workspace (heartbeat, trades, accounts); default true. */
  start?: boolean;
}

export const MIN = 60_000;

export function deskStackFixture(): (options: DeskStackOptions) => Promise<DeskStack> {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (options) => {
    const clock = scaledClock(options.scale);
    const sandbox = await startSandbox({ clock, tradeSchedule: false, inventorySize: 1_000, ...options.sandbox });
    cleanups.push(() => sandbox.close());
    if (options.faults) sandbox.faults.set(options.faults);
    const dir = mkdtempSync(join(tmpdir(), 'fault-suite-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const ws = openWorkspace({
      mode: 'live',
      dbPath: join(dir, 'profile.sqlite'),
      baseUrl: sandbox.url,
      clock,
      settings: { ...DEFAULT_SETTINGS, mode: 'live', serviceUrl: sandbox.url, ...options.settings },
      apiKey: async () => sandbox.apiKey,
      inventoryUrl: sandbox.url,
    });
    cleanups.push(() => ws.close());
    if (options.start !== false) ws.start();
    const wait = (ms: number) => clock.sleep(ms);
    const until: DeskStack['until'] = async (read, what, ms = 10 * MIN) => {
      const end = clock.now() + ms;
      for (;;) {
        const value = read();
        if (value) return value;
        if (clock.now() > end) throw new Error(`after ${ms / MIN} min of sandbox time, still waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    return {
      clock,
      sandbox,
      ws,
      wait,
      until,
      async ready() {
        await until(() => ws.accounts.snapshot().main !== null && ws.heartbeat.state.status === 'active', 'the main account and automation');
      },
    };
  };
}
