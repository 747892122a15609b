import { describe, expect, it } from 'vitest';
import { storedQuantity } from '../../../src-main/core/apply/buy-order-quantities.ts';
import { createLedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import type { BuyOrderRowView } from '../../../src-shared/ledger.ts';
import { applyFixture, type ApplyStack } from './support.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

/**
 * The create response says only `success`; the service cut each order to
 * floor(balance / price) when the balance could not cover it. The desk reads
 * the balance before the creates and after them, and records what follows.
 */

const create = (sku: string, price: number, quantity: number, account?: string): ChangeInput => ({
  kind: 'buyOrder.create', sku, price, quantity, ...(account ? { account } : {}),
});

async function applyCreates(s: ApplyStack, changes: readonly ChangeInput[]) {
  const { id } = s.drafts.create('buy orders');
  expect(s.drafts.addChanges(id, changes).errors).toEqual([]);
  const final = await s.apply.apply(id).done;
  return { id, final };
}

/** The Buy orders screen's rows, as main answers `ledger:page`. */
function rows(s: ApplyStack): Map<string, BuyOrderRowView> {
  const tables = createLedgerTables({ store: s.t.store, drafts: s.drafts, now: () => s.live.clock.now() });
  const page = tables.page('buyOrders', {}, null, 0, 100);
  return new Map(page.rows.map((r) => [(r as BuyOrderRowView).sku, r as BuyOrderRowView]));
}

const balanceReads = (s: ApplyStack) => s.live.sandbox.log.requests.filter((r) => r.endpoint === 'get_balance').length;

describe('storedQuantity: what two balance readings tell of one order', () => {
  it('is exact when the readings agree: in full, cut to floor(balance / price), or nothing', () => {
    expect(storedQuantity(5, 1_000, 10_000, 10_000)).toEqual({ exact: true, quantity: 5 });
    expect(storedQuantity(10, 3_000, 10_000, 10_000)).toEqual({ exact: true, quantity: 3 });
    expect(storedQuantity(1, 20_000, 10_000, 10_000)).toEqual({ exact: true, quantity: 0 });
  });

  it('is exact when both readings cover the same, whichever way the balance moved', () => {
    expect(storedQuantity(3, 1_000, 10_000, 6_000)).toEqual({ exact: true, quantity: 3 });
    expect(storedQuantity(3, 1_000, 6_000, 10_000)).toEqual({ exact: true, quantity: 3 });
    expect(storedQuantity(50, 3_000, 10_000, 9_500)).toEqual({ exact: true, quantity: 3 });
  });

  it('is a range from what the lower reading covers to what the higher one does, down to none', () => {
    expect(storedQuantity(50, 1_000, 10_000, 6_000)).toEqual({ exact: false, atLeast: 6, atMost: 10 });
    expect(storedQuantity(50, 1_000, 6_000, 10_000)).toEqual({ exact: false, atLeast: 6, atMost: 10 });
    expect(storedQuantity(8, 1_000, 10_000, 6_000)).toEqual({ exact: false, atLeast: 6, atMost: 8 });
    expect(storedQuantity(1, 7_000, 10_000, 6_000)).toEqual({ exact: false, atLeast: 0, atMost: 1 });
  });
});

describe('buy orders created by an apply show the quantity the service stored', () => {
  it('records the exact quantity when the balance did not move: in full, cut, and not created at all', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const linked = sandbox.accounts.linked[0] as string;
    sandbox.admin.setBalance(10_000);
    const { id, final } = await applyCreates(s, [
      create('5021;6', 1_000, 5), // covers 10: in full
      create('5002;6', 3_000, 10), // covers 3: cut to 3
      create('1071;11', 2_500, 4), // covers exactly 4
      create('5000;6', 20_000, 1), // covers none: the service creates nothing
      create('5001;6', 1_000, 50, linked), // a linked account's order
    ]);
    // The order nothing was stored for counts as failed, not done.
    expect(final).toMatchObject({ state: 'done', itemsDone: 4, itemsFailed: 1, itemsUnknown: 0 });

    const service = new Map(sandbox.admin.buyOrders().map((o) => [o.sku, o.quantity]));
    expect(service).toEqual(new Map([['5021;6', 5], ['5002;6', 3], ['1071;11', 4], ['5001;6', 10]]));
    const ledger = s.t.repos.buyOrders;
    expect(ledger.get('5021;6')).toMatchObject({ quantity: 5, quantity_may_be_cut: false, quantity_at_least: null });
    expect(ledger.get('5002;6')).toMatchObject({ quantity: 3, quantity_may_be_cut: false, quantity_at_least: null });
    expect(ledger.get('1071;11')).toMatchObject({ quantity: 4, quantity_may_be_cut: false });
    // Not on the service, so not in the ledger: the change failed, saying why, and can be applied again later.
    expect(ledger.get('5000;6')).toBeNull();
    const notCreated = s.drafts.entries(id).find((e) => e.target === 'B:5000;6');
    expect(notCreated).toMatchObject({ status: 'failed', error: { kind: 'rejected' } });
    expect(notCreated?.error?.message).toMatch(/balance .*100\.00.* does not cover one at .*200\.00/);
    // get_balance reads the main account's balance: a linked account's order keeps "may be cut".
    expect(ledger.get('5001;6')).toMatchObject({ quantity: 50, quantity_may_be_cut: true });

    // What the Buy orders screen shows.
    const shown = rows(s);
    expect(shown.get('5002;6')).toMatchObject({ quantity: 3, quantityMayBeCut: false });
    expect(shown.get('5021;6')).toMatchObject({ quantity: 5, quantityMayBeCut: false });
    // One reading before the creates and one after them.
    expect(balanceReads(s)).toBe(2);
  });

  it('records what is certain when the balance moved between the two readings', async () => {
    const s = await start();
    const { sandbox } = s.live;
    sandbox.admin.setBalance(10_000);
    // A fill takes 40.00 right after the creates were processed: the reading after says 60.00.
    sandbox.faults.set({ balanceMove: { endpoints: ['create_buy_order'], count: 1, deltaCents: -4_000 } });
    await applyCreates(s, [
      create('5021;6', 1_000, 50), // 10 at 100.00, 6 at 60.00
      create('5002;6', 1_000, 3), // 3 either way
      create('1071;11', 1_000, 8), // 8 at 100.00, 6 at 60.00
      create('5000;6', 5_000, 1), // 1 either way
      create('5001;6', 7_000, 1), // 1 at 100.00, none at 60.00
    ]);
    expect(sandbox.admin.balance().balance).toBe(6_000);
    const service = new Map(sandbox.admin.buyOrders().map((o) => [o.sku, o.quantity]));
    expect(service).toEqual(new Map([['5021;6', 10], ['5002;6', 3], ['1071;11', 8], ['5000;6', 1], ['5001;6', 1]]));

    const ledger = s.t.repos.buyOrders;
    // Certain: the same whichever balance the create met.
    expect(ledger.get('5002;6')).toMatchObject({ quantity: 3, quantity_may_be_cut: false, quantity_at_least: null });
    expect(ledger.get('5000;6')).toMatchObject({ quantity: 1, quantity_may_be_cut: false, quantity_at_least: null });
    // Not certain: at most what the higher reading covers, at least what the lower one does.
    expect(ledger.get('5021;6')).toMatchObject({ quantity: 10, quantity_may_be_cut: true, quantity_at_least: 6 });
    expect(ledger.get('1071;11')).toMatchObject({ quantity: 8, quantity_may_be_cut: true, quantity_at_least: 6 });
    expect(ledger.get('5001;6')).toMatchObject({ quantity: 1, quantity_may_be_cut: true, quantity_at_least: 0 });
    // Whatever the desk says, the service's quantity lies within it.
    for (const row of ledger.all()) {
      const truth = service.get(row.sku) ?? 0;
      expect(truth, row.sku).toBeLessThanOrEqual(row.quantity);
      expect(truth, row.sku).toBeGreaterThanOrEqual(row.quantity_at_least ?? row.quantity);
    }
    expect(rows(s).get('5021;6')).toMatchObject({ quantity: 10, quantityMayBeCut: true, quantityAtLeast: 6 });
  });

  it('keeps "may be cut" when the balance cannot be read, and sends the creates all the same', async () => {
    const s = await start();
    const { sandbox } = s.live;
    sandbox.admin.setBalance(10_000);
    sandbox.faults.set({ serverError: { endpoints: ['get_balance'] } });
    const { final } = await applyCreates(s, [create('5021;6', 1_000, 50), create('5002;6', 1_000, 3)]);
    expect(final).toMatchObject({ state: 'done', itemsDone: 2, itemsFailed: 0 });
    expect(sandbox.admin.buyOrders().map((o) => o.quantity)).toEqual([10, 3]);
    expect(s.t.repos.buyOrders.get('5021;6')).toMatchObject({ quantity: 50, quantity_may_be_cut: true, quantity_at_least: null });
    expect(s.t.repos.buyOrders.get('5002;6')).toMatchObject({ quantity: 3, quantity_may_be_cut: true });
    // Without a reading from before, one after would tell nothing: none is asked for.
    expect(balanceReads(s)).toBe(1);
  });

  it('reads no balance for an apply without buy order creates', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 3);
    await applyCreates(s, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })));
    expect(balanceReads(s)).toBe(0);
  });
});
