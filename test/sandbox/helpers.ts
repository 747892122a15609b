import { afterEach } from 'vitest';
import type { EndpointName, RequestOf } from '../../src-main/core/api/endpoints.ts';
import { ENDPOINTS } from '../../src-main/core/api/endpoints.ts';
import type { Clock } from '../../src-main/core/clock.ts';
import type { Sandbox, SandboxOptions } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';

/** A clock the test moves by hand; `sleep` moves it and resolves on the next tick. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 0, 5, 12, 0, 0)): ManualClock {
  let now = start;
  return {
    now: () => now,
    monotonic: () => now,
    advance(ms) {
      now += ms;
    },
    sleep(ms, signal) {
      now += ms;
      return new Promise((resolve, reject) => {
        if (signal?.aborted) reject(signal.reason);
        else setImmediate(resolve);
      });
    },
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
}

/** Sends one request the way the interface document describes it. `key: null` sends no key. */
export async function call<K extends EndpointName>(
  sandbox: Sandbox,
  endpoint: K,
  input?: RequestOf<K> | Record<string, unknown>,
  options: { key?: string | null; rawBody?: string } = {},
): Promise<Reply> {
  const spec = ENDPOINTS[endpoint];
  const key = options.key === undefined ? sandbox.apiKey : options.key;
  const headers: Record<string, string> = {};
  if (key !== null) headers['X-API-Key'] = key;
  let url = `${sandbox.url}${spec.path}`;
  let body: string | undefined;
  if (spec.method === 'GET') {
    const accounts = (input as { multiaccounts?: string[] } | undefined)?.multiaccounts;
    if (accounts) url += `?multiaccounts=${accounts.join(',')}`;
  } else {
    body = options.rawBody ?? (input === undefined ? undefined : JSON.stringify(input));
    if (body !== undefined) headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(url, { method: spec.method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** One create-listing item for an asset, at a price. */
export function listingItem(assetId: string, price = 100) {
  return { asset_id: assetId, price, promoted: 0 as const, game: '440' };
}

export const MINUTE = 60_000;

/**
 * For test files: `const start = sandboxFixture({ inventorySize: 100 })`; each
 * test calls `await start(options?)` for a sandbox on a manual clock (no trade
 * schedule unless asked; a `clock` in the options replaces it), closed after
 * the test.
 */
export function sandboxFixture(defaults: SandboxOptions = {}): (options?: SandboxOptions) => Promise<{ sandbox: Sandbox; clock: ManualClock }> {
  const open: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (options = {}) => {
    const clock = manualClock();
    const sandbox = await startSandbox({ clock, inventorySize: 100, tradeSchedule: false, ...defaults, ...options });
    open.push(sandbox);
    return { sandbox, clock };
  };
}
