import { describe, expect, it } from 'vitest';
import { balanceResponse } from '../../src-main/core/api/schemas.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import { call, listingItem, MINUTE, sandboxFixture } from './helpers.ts';

const start = sandboxFixture();

describe('sandbox fault knobs', () => {
  it('delays the chosen endpoints by sandbox time', async () => {
    const { sandbox } = await start({ clock: scaledClock(50) });
    sandbox.faults.set({ delayMs: { ms: 10_000, endpoints: ['get_balance'] } }); // 200 ms of real time
    const started = performance.now();
    expect((await call(sandbox, 'get_balance')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    await call(sandbox, 'load_pending');
    // Other endpoints are not delayed.
    expect(sandbox.log.requests.map((r) => r.faults)).toEqual([['delay'], []]);
    expect(sandbox.log.counters.delayed).toBe(1);
  });

  it('answers late what it saw when asked: the state changed meanwhile is not in the answer', async () => {
    const { sandbox } = await start({ clock: scaledClock(50) });
    sandbox.admin.setBalance(1_000);
    sandbox.faults.set({ lateAnswerMs: { ms: 10_000, endpoints: ['get_balance'] } }); // 200 ms of real time
    const started = performance.now();
    const asked = call(sandbox, 'get_balance');
    await new Promise((resolve) => setTimeout(resolve, 100));
    sandbox.admin.setBalance(2_500);
    const answer = await asked;
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(balanceResponse.parse(answer.body).balance).toBe(1_000);
    expect(balanceResponse.parse((await call(sandbox, 'get_balance')).body).balance).toBe(2_500);
    expect(sandbox.log.requests.map((r) => r.faults)).toEqual([['lateAnswer'], ['lateAnswer']]);
  });

  it('closes while a request is delayed without leaving it running', async () => {
    const sandbox = await startSandbox({ clock: scaledClock(1), inventorySize: 100, tradeSchedule: false });
    sandbox.faults.set({ delayMs: 60_000 });
    const pending = call(sandbox, 'get_balance');
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await sandbox.close();
    await expect(pending).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('drops the connection after processing: the state changed, the client got no answer', async () => {
    const { sandbox, clock } = await start();
    const [a, b] = sandbox.admin.inventory();
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    await expect(call(sandbox, 'create_listing', { items: [listingItem(a?.asset_id ?? '')] })).rejects.toThrow();
    expect(sandbox.admin.listings().map((l) => l.asset_id)).toEqual([a?.asset_id]);
    expect(sandbox.log.counters).toMatchObject({ dropped: 1, listingsCreated: 1 });
    expect(sandbox.log.requests[0]).toMatchObject({ status: 200, dropped: true, faults: ['drop'] });
    clock.advance(MINUTE);
    // Re-sending blindly is exactly what the duplicate counter catches.
    const again = await call(sandbox, 'create_listing', { items: [listingItem(a?.asset_id ?? ''), listingItem(b?.asset_id ?? '')] });
    expect(again.status).toBe(200);
    expect(sandbox.log.counters.duplicateCreates).toBe(1);
  });

  it('answers 5xx without processing or spending budget, for `count` requests', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ serverError: { status: 503, count: 2, endpoints: ['delete_all_buy_orders'] } });
    await call(sandbox, 'create_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 1 }] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sandbox, 'delete_all_buy_orders')).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(sandbox.log.counters.count5xx).toBe(2);
    expect(sandbox.log.counters.buyOrdersDeleted).toBe(1);
  });

  it('rolls `probability` on the seeded RNG: the same seed fails the same requests', async () => {
    const pattern = async () => {
      const { sandbox, clock } = await start({ seed: 11 });
      sandbox.faults.set({ serverError: { probability: 0.5 } });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) {
        out.push((await call(sandbox, 'get_balance')).status);
        clock.advance(MINUTE);
      }
      return out;
    };
    const first = await pattern();
    expect(first).toContain(500);
    expect(first).toContain(200);
    expect(await pattern()).toEqual(first);
  });

  it('answers 200 with a body that is not JSON, after processing', async () => {
    const { sandbox } = await start();
    const [a] = sandbox.admin.inventory();
    sandbox.faults.set({ malformed: { endpoints: ['create_listing'] } });
    const res = await call(sandbox, 'create_listing', { items: [listingItem(a?.asset_id ?? '')] });
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text)).toThrow();
    expect(sandbox.admin.listings()).toHaveLength(1);
    expect(sandbox.log.counters.malformed).toBe(1);
  });

  it('echoes the key encoded in an error reply: base64 of user:key, URL-safe base64, upper-case hex, base64 over lines', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ echoKeyEncoded: { endpoints: ['get_balance'], count: 1 } });
    const key = 'ENCODED-LEAK-0123456789';
    const reply = await call(sandbox, 'get_balance', undefined, { key });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({
      success: false,
      authorization: `Basic ${Buffer.from(`desk:${key}`).toString('base64')}`,
      trace: Buffer.from(`k=${key}`).toString('base64url'),
      key_hex: Buffer.from(key).toString('hex').toUpperCase(),
    });
    expect((reply.body as { pem: string }).pem.replaceAll('\r\n', '')).toBe(Buffer.from(key).toString('base64'));
    expect(reply.text).not.toContain(key);
    expect(sandbox.log.requests[0]?.faults).toEqual(['echoKeyEncoded']);
    expect((await call(sandbox, 'get_balance', undefined, { key })).text).not.toContain('Basic');
  });

  it('echoes the key an error reply refused: raw, escaped twice inside a quoted JSON error, and URL-encoded', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ echoKey: { endpoints: ['get_balance'], count: 1 } });
    const key = 'LEAK"CHECK\\x/1';
    const reply = await call(sandbox, 'get_balance', undefined, { key });
    expect(reply.status).toBe(401);
    const json = (s: string) => JSON.stringify(s).slice(1, -1);
    expect(reply.text).toContain(json(json(key)));
    expect(reply.text).toContain(encodeURIComponent(key));
    expect(reply.body).toMatchObject({ success: false, key });
    expect(sandbox.log.requests[0]?.faults).toEqual(['echoKey']);
    // Only error replies, and only `count` of them.
    expect((await call(sandbox, 'get_balance')).text).not.toContain(sandbox.apiKey);
    expect((await call(sandbox, 'get_balance', undefined, { key })).text).not.toContain('LEAK');
  });

  it('answers 200 with JSON missing a required field', async () => {
    const { sandbox } = await start();
    sandbox.faults.set({ malformed: { kind: 'missing_field', count: 1 } });
    const bad = await call(sandbox, 'get_balance');
    expect(balanceResponse.safeParse(bad.body).success).toBe(false);
    const good = await call(sandbox, 'get_balance');
    expect(balanceResponse.safeParse(good.body).success).toBe(true);
  });

  it('storms 429 at every endpoint until untilMs, without counting against the budget', async () => {
    const { sandbox, clock } = await start();
    sandbox.faults.set({ storm429: { retryAfterSec: 7, untilMs: clock.now() + 30_000 } });
    for (const endpoint of ['get_balance', 'load_pending', 'set_user_agent'] as const) {
      const res = await call(sandbox, endpoint);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ error: expect.any(String), retry_after: 7 });
      expect(res.headers.get('retry-after')).toBe('7');
    }
    clock.advance(30_000);
    expect((await call(sandbox, 'load_pending')).status).toBe(200);
    expect(sandbox.log.counters).toMatchObject({ count429: 3, countStorm429: 3 });
    sandbox.faults.set({ storm429: { retryAfterSec: 1, untilMs: clock.now() + MINUTE } });
    sandbox.faults.clear();
    expect((await call(sandbox, 'get_balance')).status).toBe(200);
  });
});
