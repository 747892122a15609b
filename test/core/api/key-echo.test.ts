import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, type MarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { EndpointName } from '../../../src-main/core/api/endpoints.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { REDACTED } from '../../../src-main/core/api/redact.ts';
import { KEY_SPELLING_NAMES, KEY_SPELLINGS, type KeySpelling } from '../../../src-main/sandbox/key-echo.ts';
import type { Sandbox } from '../../../src-main/sandbox/index.ts';
import { keyTraces } from '../../support/key-traces.ts';
import { sandboxFixture } from '../../sandbox/helpers.ts';

/**
 * The client takes the key out of the service's answers where they come
 * in, whatever its spelling: inside the trades of a successful answer, in
 * an error, in a header; and says so (`onKeyEcho`), naming the endpoint.
 * Against the simulator over HTTP, for every spelling of its corpus.
 */

const start = sandboxFixture({ inventorySize: 10 });
const clients: MarketplaceClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** Fields of a trade that are bounded at 64 characters take only the spellings that fit. */
const WORD_MAX = 64;

async function open(): Promise<{ sandbox: Sandbox; client: MarketplaceClient; echoes: EndpointName[]; key: string }> {
  const { sandbox, clock } = await start();
  const echoes: EndpointName[] = [];
  const client = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => sandbox.apiKey, clock, onKeyEcho: (e) => echoes.push(e) });
  clients.push(client);
  sandbox.admin.addTrade({
    trade_type: 'market', status: 'Action Required', total: 300,
    items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 300, quality: 'Unique', image_url: '', particle_url: '' }],
  });
  return { sandbox, client, echoes, key: sandbox.apiKey };
}

const everyRendering = (error: unknown) =>
  [JSON.stringify(error), String(error), inspect(error, { depth: 10, showHidden: true }), error instanceof ApiError ? String(error.body) : ''].join('\n');

describe('a key echoed inside a successful answer', () => {
  it.each(KEY_SPELLING_NAMES)('%s: taken out of every field it was put in, the endpoint named once', async (spelling: KeySpelling) => {
    const { sandbox, client, echoes, key } = await open();
    const spelled = KEY_SPELLINGS[spelling](key);
    const fields = spelled.length <= WORD_MAX ? (['name', 'status', 'verification_code'] as const) : (['name'] as const);
    sandbox.faults.set({ echoKeyInTrades: { spelling, fields, count: 1 } });
    const trades = await client.call('load_pending', {});
    expect(sandbox.log.requests.at(-1)?.faults).toEqual(['echoKeyInTrades']);
    expect(keyTraces(JSON.stringify(trades), key)).toEqual([]);
    const [trade] = trades;
    expect(trade?.items[0]?.name).toContain(REDACTED);
    if (fields.length > 1) expect([trade?.status, trade?.verification_code]).toEqual([expect.stringContaining(REDACTED), expect.stringContaining(REDACTED)]);
    expect(echoes).toEqual(['load_pending']);
  });

  it('leaves an answer without the key as it was, and says nothing', async () => {
    const { client, echoes } = await open();
    const [trade] = await client.call('load_pending', {});
    expect(trade?.items[0]?.name).toBe('Team Captain');
    expect(echoes).toEqual([]);
  });
});

describe('a key echoed in an error', () => {
  it.each(KEY_SPELLING_NAMES)('%s: in no rendering of the error, the endpoint named', async (spelling: KeySpelling) => {
    const { sandbox, client, echoes, key } = await open();
    sandbox.faults.set({ serverError: { endpoints: ['load_pending'], count: 1 }, echoKeyInError: { spelling, count: 1 } });
    const error = await client.call('load_pending', {}).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('server');
    expect(sandbox.log.requests.at(-1)?.faults).toEqual(['serverError', 'echoKeyInError']);
    const text = everyRendering(error);
    expect(keyTraces(text, key)).toEqual([]);
    expect((error as ApiError).message).toContain(REDACTED);
    expect(echoes).toEqual(['load_pending']);
  });

  it('a rejected key echoed back in capitals is out of the 401 too', async () => {
    const { sandbox, echoes } = await open();
    const wrong = 'Wrong-Key-5e1b84d07a1c0b9d8e2f';
    const client = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => wrong, onKeyEcho: (e) => echoes.push(e) });
    clients.push(client);
    sandbox.faults.set({ echoKeyInError: { spelling: 'upperCase' } });
    const error = await client.call('get_balance', {}).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ kind: 'auth' });
    expect(keyTraces(everyRendering(error), wrong)).toEqual([]);
    expect(echoes).toEqual(['get_balance']);
  });
});

describe('a key echoed in a header', () => {
  it.each(['raw', 'mixedCase', 'basicAuth', 'htmlHex'] as const)('%s: noticed and named, the answer read as usual', async (spelling) => {
    const { sandbox, client, echoes } = await open();
    sandbox.faults.set({ echoKeyInHeader: { spelling, endpoints: ['get_balance'] } });
    const balance = await client.call('get_balance', {});
    expect(balance.balance).toBe(sandbox.admin.balance().balance);
    expect(sandbox.log.requests.at(-1)?.faults).toEqual(['echoKeyInHeader']);
    expect(echoes).toEqual(['get_balance']);
  });
});
