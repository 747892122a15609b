import { describe, expect, it } from 'vitest';
import { KEY_SPELLING_NAMES, KEY_SPELLINGS } from '../../src-main/sandbox/key-echo.ts';
import { keyTraces } from '../support/key-traces.ts';
import { call, MINUTE, sandboxFixture } from './helpers.ts';

/** The knobs that make the simulator hand the key back: in an error, in a header, inside the trades it answers. */

const start = sandboxFixture();

const tradeSeed = {
  trade_type: 'market' as const, status: 'Action Required', total: 300,
  items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 300, quality: 'Unique', image_url: '', particle_url: '' }],
};

describe('the key spellings', () => {
  it('are at least twenty, each a different text that still holds the key (as the tests judge it)', () => {
    const key = 'Zq7Rk2LmW9xT4bNc8VfH3sJd6GpY1aEu';
    const spelled = KEY_SPELLING_NAMES.map((name) => KEY_SPELLINGS[name](key));
    expect(spelled.length).toBeGreaterThanOrEqual(20);
    expect(new Set(spelled).size).toBe(spelled.length);
    for (const [i, text] of spelled.entries()) expect(keyTraces(text, key), KEY_SPELLING_NAMES[i]).not.toEqual([]);
    // Nearly all are not the key as written: a search for it, in any case, misses them.
    expect(spelled.filter((t) => !t.toLowerCase().includes(key.toLowerCase())).length).toBeGreaterThanOrEqual(20);
  });

  it('give at least twenty different texts of a key in small hex letters too, as the simulator issues', async () => {
    const { sandbox } = await start();
    expect(sandbox.apiKey).toMatch(/^[0-9a-f]{32}$/);
    const spelled = new Set(KEY_SPELLING_NAMES.map((name) => KEY_SPELLINGS[name](sandbox.apiKey)));
    expect(spelled.size).toBeGreaterThanOrEqual(20);
  });
});

describe('sandbox knobs that echo the key', () => {
  it('quote the key in an error reply, spelled as asked, and only in errors', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ echoKeyInError: { spelling: 'htmlHex', endpoints: ['edit_listing'], count: 1 } });
    const refused = await call(sandbox, 'edit_listing', { items: [{ listing_id: 'no-such-listing', price: 100, promoted: 0 }] });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toContain(`(request key: ${KEY_SPELLINGS.htmlHex(sandbox.apiKey)})`);
    expect(refused.text).not.toContain(sandbox.apiKey);
    expect(sandbox.log.requests[0]?.faults).toEqual(['echoKeyInError']);
    sandbox.faults.set({ echoKeyInError: { endpoints: ['get_balance'] } });
    expect((await call(sandbox, 'get_balance')).text).not.toContain('request key');
    const wrongKey = await call(sandbox, 'get_balance', undefined, { key: 'WRONG-KEY-0123456789abcdef' });
    expect((wrongKey.body as { error: string }).error).toContain('(request key: WRONG-KEY-0123456789abcdef)');
  });

  it('quote the key in a debug header of any answer, on one line', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ echoKeyInHeader: { spelling: 'wrappedOverLines', endpoints: ['get_balance'] } });
    const answer = await call(sandbox, 'get_balance');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-debug-auth')).toBe(`x-api-key=${KEY_SPELLINGS.wrappedOverLines(sandbox.apiKey).replace(/\r\n/g, ' ')}`);
    expect(sandbox.log.requests[0]?.faults).toEqual(['echoKeyInHeader']);
    expect((await call(sandbox, 'load_pending')).headers.get('x-debug-auth')).toBeNull();
  });

  it('put the key inside the trades answered: item names by default, the status and verification code when asked', async () => {
    const { sandbox, clock } = await start();
    sandbox.admin.addTrade(tradeSeed);
    sandbox.faults.set({ echoKeyInTrades: { spelling: 'upperCase', count: 1 } });
    const [first] = (await call(sandbox, 'load_pending')).body as Array<{ status: string; items: Array<{ name: string }> }>;
    expect(first?.items.map((i) => i.name)).toEqual([sandbox.apiKey.toUpperCase()]);
    expect(first?.status).toBe('Action Required');
    expect(sandbox.log.requests[0]?.faults).toEqual(['echoKeyInTrades']);

    clock.advance(MINUTE);
    sandbox.faults.set({ echoKeyInTrades: { spelling: 'first16', fields: ['status', 'verification_code'] } });
    const [second] = (await call(sandbox, 'load_pending')).body as Array<{ status: string; verification_code: string; items: Array<{ name: string }> }>;
    expect(second).toMatchObject({ status: sandbox.apiKey.slice(0, 16), verification_code: sandbox.apiKey.slice(0, 16) });
    expect(second?.items[0]?.name).toBe('Team Captain');
    // Only the trade lists carry it.
    expect((await call(sandbox, 'get_balance')).text).not.toContain(sandbox.apiKey.slice(0, 16));
  });
});
