import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import type { ApiErrorKind } from '../../../src-main/core/api/errors.ts';
import { REDACTED } from '../../../src-main/core/api/redact.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { closedPort, json, rejection, startSilentTcpServer, startTestServer } from './test-server.ts';
import type { TestServer } from './test-server.ts';

/**
 * The key must never leave in an error: provoke every error kind against a
 * server that echoes the key everywhere it can, and search every rendering
 * of each error, and everything written to the console, for the key.
 */

const KEY = 'LEAKCHECK-7f3a9c2e51b84d06';
const listing = { items: [{ asset_id: '1', price: 100, promoted: 0 as const, game: '440' }] };

let server: TestServer;
let silent: Awaited<ReturnType<typeof startSilentTcpServer>>;
let refusedPort: number;
const output: string[] = [];
const restore: (() => void)[] = [];

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const key = String(req.headers['x-api-key']);
    const echo = { 'x-echo': key };
    const mode = modeFor(req.url ?? '', req.method ?? '');
    switch (mode) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'too-large':
        json(res, 200, JSON.stringify({ key, pad: 'x'.repeat(100_000), again: key }), echo);
        return;
      default:
        break;
    }
    const [status, body] = mode;
    res.writeHead(status, { 'content-type': 'application/json', ...echo });
    res.end(body.split('@KEY@').join(key));
  });
  silent = await startSilentTcpServer();
  refusedPort = await closedPort();

  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      output.push(args.map((a) => inspect(a, { depth: 10 })).join(' '));
    });
    restore.push(() => spy.mockRestore());
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      output.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => {
      stream.write = original;
    });
  }
  const onWarning = (warning: Error) => output.push(inspect(warning, { depth: 10 }));
  process.on('warning', onWarning);
  restore.push(() => process.off('warning', onWarning));
});

afterAll(async () => {
  for (const undo of restore.splice(0)) undo();
  await server.close();
  await silent.close();
  expect(output.join('\n')).not.toContain(KEY);
});

type Mode = 'drop' | 'hang' | 'too-large' | [number, string];

/** Each endpoint path answers one way, so one server serves every scenario. */
function modeFor(path: string, method: string): Mode {
  const echoBody = '{"error":"bad key @KEY@","key":"@KEY@"}';
  if (path.startsWith('/hang/')) return 'hang';
  if (path.startsWith('/api/dev/get_balance')) return [401, echoBody];
  if (path.startsWith('/api/dev/get_linked_trade_urls')) return [403, echoBody];
  if (path.startsWith('/api/dev/set_user_agent')) return [429, '{"error":"@KEY@","retry_after":5}'];
  if (path.startsWith('/api/dev/load_pending_buy_orders')) return [200, '[{"trade_id":"@KEY@"}]'];
  if (path.startsWith('/api/dev/load_pending')) return [503, `${'y'.repeat(1990)}@KEY@${'z'.repeat(5000)}@KEY@`];
  if (path === '/api/dev/listing' && method === 'PATCH') return [400, echoBody];
  if (path === '/api/dev/listing' && method === 'DELETE') return [200, '{"success":false,"error":"@KEY@"}'];
  if (path === '/api/dev/listings') return [200, '{"success": true, "@KEY@'];
  if (path === '/api/dev/create_listing') return 'drop';
  if (path === '/api/dev/buy_order' && method === 'PATCH') return 'hang';
  if (path === '/api/dev/buy_orders') return 'too-large';
  return [404, echoBody];
}

function assertKeyFree(error: unknown): void {
  const renderings = [
    JSON.stringify(error),
    String(error),
    error instanceof Error ? String(error.stack) : '',
    inspect(error, { depth: 10 }),
    inspect(error, { depth: 10, showHidden: true }),
    error instanceof Error ? inspect(error.cause, { depth: 10, showHidden: true }) : '',
  ];
  for (const text of renderings) expect(text).not.toContain(KEY);
}

async function provoke(call: () => Promise<unknown>): Promise<ApiError> {
  const error = await rejection(call());
  assertKeyFree(error);
  if (!(error instanceof ApiError)) throw error;
  return error;
}

describe('the API key never appears in an error', () => {
  let client: MarketplaceClient;
  beforeAll(() => {
    client = createMarketplaceClient({ baseUrl: server.url, apiKey: async () => KEY, timeoutMs: 300 });
  });
  afterAll(async () => {
    await client.close();
  });

  const seen = new Set<ApiErrorKind>();
  afterAll(() => {
    // Every kind of error was provoked at least once.
    expect([...seen].sort()).toEqual(
      ['auth', 'bad_response', 'forbidden', 'invalid', 'network', 'rate_limited', 'rejected', 'server', 'unknown_outcome'].sort(),
    );
  });

  const cases: [string, ApiErrorKind, () => Promise<unknown>][] = [
    ['401 echoing the key', 'auth', () => client.call('get_balance', {})],
    ['403 echoing the key', 'forbidden', () => client.call('get_linked_trade_urls', {})],
    ['429 echoing the key', 'rate_limited', () => client.call('set_user_agent', {})],
    ['5xx with the key beyond the excerpt', 'server', () => client.call('load_pending', {})],
    ['400 echoing the key', 'rejected', () => client.call('edit_listing', { items: [{ listing_id: 'L', price: 1, promoted: 0 }] })],
    ['success: false echoing the key', 'rejected', () => client.call('delete_listing', { items: [{ asset_id: '1' }] })],
    ['schema mismatch around the key', 'bad_response', () => client.call('load_pending_buy_orders', {})],
    ['malformed JSON holding the key', 'bad_response', () => client.call('delete_all_listings', { active_only: true })],
    ['oversized body holding the key', 'bad_response', () => client.call('delete_all_buy_orders', {})],
    ['socket dropped after a write', 'unknown_outcome', () => client.call('create_listing', listing)],
    ['timeout of a write', 'unknown_outcome', () => client.call('edit_buy_order', { items: [{ sku: 'a;b', price: 1, quantity: 1, active: 1 }] })],
    ['invalid input holding the key', 'invalid', () => client.call('delete_listing', { items: [{ asset_id: KEY }] })],
  ];
  it.each(cases)('%s → %s', async (_name, kind, call) => {
    const error = await provoke(call);
    expect(error.kind).toBe(kind);
    seen.add(error.kind);
  });

  it('network failures: refused, connect timeout, read timeout', async () => {
    const refused = createMarketplaceClient({ baseUrl: `http://127.0.0.1:${refusedPort}`, apiKey: async () => KEY });
    const hanging = createMarketplaceClient({ baseUrl: `${server.url}/hang`, apiKey: async () => KEY, timeoutMs: 200 });
    const stalled = createMarketplaceClient({
      baseUrl: `https://127.0.0.1:${silent.port}`,
      apiKey: async () => KEY,
      connectTimeoutMs: 100,
    });
    try {
      for (const call of [
        () => refused.call('create_listing', listing),
        () => stalled.call('create_listing', listing),
        () => hanging.call('get_balance', {}),
      ]) {
        const error = await provoke(call);
        expect(error.kind).toBe('network');
        seen.add(error.kind);
      }
    } finally {
      await hanging.close();
      await refused.close();
      await stalled.close();
    }
  });

  it('a caller abort after sending a write', async () => {
    const controller = new AbortController();
    const pending = provoke(() =>
      client.call('edit_buy_order', { items: [{ sku: 'a;b', price: 1, quantity: 1, active: 1 }] }, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error('stop')), 50);
    expect((await pending).kind).toBe('unknown_outcome');
  });

  it('a key source that fails with the key in its message', async () => {
    const failing = createMarketplaceClient({
      baseUrl: server.url,
      apiKey: async () => {
        throw new Error(`could not decrypt ${KEY}`);
      },
    });
    const error = await provoke(() => failing.call('get_balance', {}));
    expect(error.kind).toBe('auth');
    await failing.close();
  });
});

/**
 * A key holding a `"` (keys are any printable ASCII) is escaped once in a
 * JSON body, twice when a gateway quotes the service's JSON error as a
 * string, and percent-encoded when echoed in a URL: none of those forms may
 * survive in an error either.
 */
describe('a key with a quote, echoed escaped twice or URL-encoded', () => {
  const QUOTED = 'LEAK"CHECK\\9f/3+a';
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const lowerHex = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
  const FORMS = [QUOTED, json(QUOTED), json(json(QUOTED)), encodeURIComponent(QUOTED), lowerHex(QUOTED)];
  let echo: TestServer;
  let client: MarketplaceClient;

  beforeAll(async () => {
    echo = await startTestServer((req, res) => {
      const key = String(req.headers['x-api-key']);
      const path = req.url ?? '';
      const gatewayError = JSON.stringify({ error: JSON.stringify({ message: `bad key ${key}`, key }) });
      if (path.startsWith('/api/dev/get_balance')) return json400(res, 502, gatewayError);
      if (path.startsWith('/api/dev/get_linked_trade_urls')) return json400(res, 403, `{"error":"see https://market.example/keys?k=${encodeURIComponent(key)}"}`);
      if (path.startsWith('/api/dev/load_pending_buy_orders')) return json400(res, 200, `[{"trade_id":${JSON.stringify(gatewayError)}}]`);
      if (path === '/api/dev/listing') return json400(res, 200, `{"success":false,"error":"k=${lowerHex(key)} ${json(json(key))}"}`);
      return json400(res, 400, gatewayError);
    });
    client = createMarketplaceClient({ baseUrl: echo.url, apiKey: async () => QUOTED, timeoutMs: 1_000 });
  });
  afterAll(async () => {
    await client.close();
    await echo.close();
    const logged = output.join('\n');
    for (const form of FORMS) expect(logged).not.toContain(form);
  });

  function json400(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  }

  const calls: [string, ApiErrorKind, () => Promise<unknown>][] = [
    ['5xx quoting a JSON error as a string', 'server', () => client.call('get_balance', {})],
    ['403 with the key URL-encoded', 'forbidden', () => client.call('get_linked_trade_urls', {})],
    ['schema mismatch around a doubly escaped key', 'bad_response', () => client.call('load_pending_buy_orders', {})],
    ['success: false with lower-case hex and double escaping', 'rejected', () => client.call('delete_listing', { items: [{ asset_id: '1' }] })],
    ['400 quoting a JSON error as a string', 'rejected', () => client.call('create_buy_order', { items: [{ sku: 'a;b', price: 1, quantity: 1 }] })],
  ];
  it.each(calls)('%s → %s, with no form of the key in any rendering', async (_name, kind, call) => {
    const error = await rejection(call());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe(kind);
    const renderings = [
      JSON.stringify(error),
      String(error),
      String((error as Error).stack),
      inspect(error, { depth: 10, showHidden: true }),
      String((error as ApiError).body),
    ].join('\n');
    for (const form of FORMS) expect(renderings, form).not.toContain(form);
    expect(renderings).toContain(REDACTED);
  });
});

describe('against the simulator echoing the key in its error replies', () => {
  it('keeps every form of the key out of the errors of a rejected key and of a refusal', async () => {
    const sandbox = await startSandbox({ inventorySize: 10, tradeSchedule: false });
    const quoted = 'LEAK"CHECK\\sim/9+z';
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    const rejectedKey = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => quoted });
    const goodKey = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => sandbox.apiKey });
    try {
      sandbox.faults.set({ echoKey: true });
      const auth = await rejection(rejectedKey.call('get_balance', {}));
      const refused = await rejection(goodKey.call('edit_listing', { items: [{ listing_id: 'no-such-listing', price: 100, promoted: 0 }] }));
      expect(sandbox.log.requests.map((r) => r.faults)).toEqual([['echoKey'], ['echoKey']]);
      for (const [error, key] of [[auth, quoted], [refused, sandbox.apiKey]] as const) {
        expect(error).toBeInstanceOf(ApiError);
        const text = [JSON.stringify(error), String(error), inspect(error, { depth: 10, showHidden: true }), String((error as ApiError).body)].join('\n');
        for (const form of [key, json(key), json(json(key)), encodeURIComponent(key)]) expect(text).not.toContain(form);
      }
    } finally {
      await rejectedKey.close();
      await goodKey.close();
      await sandbox.close();
    }
  });
});
