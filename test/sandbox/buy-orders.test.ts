import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import type { ManualClock } from './helpers.ts';
import { call, manualClock, MINUTE } from './helpers.ts';

let sandbox: Sandbox;
let clock: ManualClock;
afterEach(() => sandbox.close());

async function start(options: SandboxOptions = {}) {
  clock = manualClock();
  sandbox = await startSandbox({ clock, inventorySize: 100, tradeSchedule: false, ...options });
  sandbox.admin.setBalance({ balance: 1_000, pending_balance: 77 });
}

async function send(endpoint: 'create_buy_order' | 'edit_buy_order' | 'delete_buy_order' | 'delete_all_buy_orders', body?: object) {
  clock.advance(MINUTE);
  return call(sandbox, endpoint, body as Record<string, unknown>);
}

const order = (sku: string) => sandbox.admin.buyOrders().find((o) => o.sku === sku);

describe('sandbox buy orders', () => {
  it('cuts the quantity to floor(balance / price) at creation and skips an order it cannot fund at all', async () => {
    await start();
    const res = await send('create_buy_order', {
      items: [
        { sku: '5021;6', price: 300, quantity: 10 },
        { sku: '5002;6', price: 5, quantity: 7 },
        { sku: '1071;11', price: 5_000, quantity: 1 },
      ],
    });
    expect(res.body).toEqual({ success: true });
    expect(order('5021;6')).toMatchObject({ quantity: 3, filled: 0, active: 1 });
    expect(order('5002;6')).toMatchObject({ quantity: 7 });
    expect(order('1071;11')).toBeUndefined();
    expect(sandbox.log.counters).toMatchObject({ buyOrdersCreated: 2, buyOrderQuantityCut: 1, buyOrdersSkippedNoFunds: 1 });
    // No funds are reserved.
    expect(sandbox.admin.balance()).toEqual({ balance: 1_000, pending_balance: 77 });
  });

  it('keeps one order per SKU and account: a second create for the SKU is counted, not applied', async () => {
    await start();
    await send('create_buy_order', { items: [{ sku: '5021;6', price: 100, quantity: 2 }] });
    await send('create_buy_order', { items: [{ sku: '5021;6', price: 150, quantity: 1 }] });
    expect(order('5021;6')).toMatchObject({ price: 100, quantity: 2 });
    expect(sandbox.log.counters.duplicateBuyOrderCreates).toBe(1);
    const linked = sandbox.accounts.linked[0] ?? '';
    await send('create_buy_order', { items: [{ sku: '5021;6', price: 120, quantity: 1 }], multiaccount_proxy: linked });
    expect(sandbox.admin.buyOrders().map((o) => [o.account, o.price])).toEqual([[sandbox.accounts.main, 100], [linked, 120]]);
  });

  it('refuses the whole edit when the balance cannot cover the remaining quantity', async () => {
    await start();
    await send('create_buy_order', { items: [{ sku: '5021;6', price: 200, quantity: 2 }, { sku: '5002;6', price: 5, quantity: 2 }] });
    const refused = await send('edit_buy_order', {
      items: [
        { sku: '5002;6', price: 6, quantity: 3, active: 1 },
        { sku: '5021;6', price: 200, quantity: 6, active: 1 },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/^items\.1\.quantity: insufficient balance/) });
    expect(order('5002;6')).toMatchObject({ price: 5, quantity: 2 });
    // A partly filled order needs only its remaining part covered.
    expect(sandbox.admin.fillBuyOrder('5021;6', 1)).toBe(1);
    expect(sandbox.admin.balance().balance).toBe(800);
    const ok = await send('edit_buy_order', { items: [{ sku: '5021;6', price: 200, quantity: 5, active: 1 }] });
    expect(ok.status).toBe(200);
    expect(order('5021;6')).toMatchObject({ quantity: 5, filled: 1 });
  });

  it('pauses and resumes with active; a paused order is not filled over time', async () => {
    await start({ tradeSchedule: true });
    sandbox.admin.setBalance(1_000_000);
    await send('create_buy_order', { items: [{ sku: '5002;6', price: 5, quantity: 1_000 }] });
    await send('edit_buy_order', { items: [{ sku: '5002;6', price: 5, quantity: 1_000, active: 0 }] });
    clock.advance(24 * 60 * MINUTE);
    expect(order('5002;6')).toMatchObject({ active: 0, filled: 0 });
    await send('edit_buy_order', { items: [{ sku: '5002;6', price: 5, quantity: 1_000, active: 1 }] });
    clock.advance(24 * 60 * MINUTE);
    const filled = order('5002;6')?.filled ?? 0;
    expect(filled).toBeGreaterThan(10);
    expect(sandbox.admin.balance().balance).toBe(1_000_000 - filled * 5);
    expect(sandbox.log.counters.buyOrderUnitsFilled).toBe(filled);
  });

  it('fills the same way from the same seed', async () => {
    const fillsAfterADay = async () => {
      await start({ tradeSchedule: true });
      await send('create_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 50 }, { sku: '5002;6', price: 3, quantity: 50 }] });
      clock.advance(12 * 60 * MINUTE);
      const result = sandbox.admin.buyOrders().map((o) => [o.sku, o.filled]);
      await sandbox.close();
      return result;
    };
    const first = await fillsAfterADay();
    expect(first.some(([, filled]) => Number(filled) > 0)).toBe(true);
    expect(await fillsAfterADay()).toEqual(first);
  });

  it('filters profanity out of notes; an empty note on edit removes it', async () => {
    await start();
    await send('create_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 1, user_note: 'No SCAM offers, damnit' }] });
    expect(order('5021;6')?.user_note).toBe('No **** offers, damnit');
    await send('edit_buy_order', { items: [{ sku: '5021;6', price: 10, quantity: 1, active: 1, user_note: '' }] });
    expect(order('5021;6')?.user_note).toBeNull();
  });

  it('deletes only the unfilled part, refuses an unknown SKU, and delete-all returns deleted_count', async () => {
    await start();
    await send('create_buy_order', { items: ['5021;6', '5002;6', '725;6'].map((sku) => ({ sku, price: 10, quantity: 4 })) });
    sandbox.admin.fillBuyOrder('5021;6', 2);
    const unknown = await send('delete_buy_order', { items: [{ sku: '5021;6' }, { sku: '999;6' }] });
    expect(unknown.status).toBe(400);
    expect(sandbox.admin.buyOrders()).toHaveLength(3);
    expect((await send('delete_buy_order', { items: [{ sku: '5021;6' }] })).status).toBe(200);
    expect(order('5021;6')).toBeUndefined();
    expect(sandbox.admin.balance().balance).toBe(980); // the filled units stay paid
    const all = await send('delete_all_buy_orders');
    expect(all.body).toEqual({ success: true, deleted_count: 2 });
    const again = await send('delete_all_buy_orders');
    expect(again.body).toEqual({ success: true, deleted_count: 0 });
  });
});
