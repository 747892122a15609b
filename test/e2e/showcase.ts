import { expect } from '@playwright/test';
import { createTradeHistory } from '../../src-main/core/history/trade-history.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startTestDesk, type TestDesk } from './desk-fixture.ts';

/**
 * A desk as a trader has it after a week: a named ledger (the simulator's
 * SKUs, plus buy orders for items every trader knows: keys, an Unusual, a
 * Strange Professional Killstreak Australium), listings sold in a trade and
 * one the service no longer holds, trades waiting for action, and a draft of
 * a thousand changes with a refused one, a large reprice and an apply whose
 * answer was lost. The screenshot and accessibility specs open every screen
 * of it.
 */
export interface Showcase {
  readonly desk: TestDesk;
  readonly draftId: string;
  /** A listing the draft reprices from $765.25 to $7,888.73 (the Price column must show both). */
  readonly bigPriceAsset: string;
  /** A create the service refused (the Draft column must show NEW and its "!"). */
  readonly refusedAsset: string;
  /** A delete the service refused: DELETE and its "!", the widest mark. */
  readonly refusedDeleteAsset: string;
  close(): Promise<void>;
}

/** Buy orders for real SKUs of the game, as backpack.tf names them. */
const BUY_ORDERS: ReadonlyArray<{ sku: string; price: number; quantity: number }> = [
  { sku: '5021;6', price: 6_250, quantity: 40 },
  { sku: '378;5;u13', price: 152_000, quantity: 1 },
  { sku: '205;11;kt-2', price: 2_499, quantity: 3 },
  { sku: '211;11;australium;kt-3;festive', price: 48_000, quantity: 1 },
  { sku: '6526;6;uncraftable;kt-3;td-201', price: 1_899, quantity: 5 },
  { sku: '30911;5;u144', price: 23_500, quantity: 1 },
  { sku: '199;15;w3;pk120', price: 350, quantity: 10 },
  { sku: '5002;6', price: 169, quantity: 200 },
  { sku: '99999;6', price: 100, quantity: 1 },
];

async function ok<T = unknown>(router: Router, channel: string, input: unknown): Promise<T> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`);
  return result.value as T;
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startShowcase(): Promise<Showcase> {
  // Listings of the ledger the showcase names, picked when the profile is seeded.
  let picked: { big: string; refusedDelete: string } | null = null;
  const desk = await startTestDesk({
    ledgerSize: 400,
    timeScale: 60,
    // Written before the desk opens, as a profile that has run for a week has them.
    seed: ({ store, repos, sandbox }) => {
      // A fortnight of trading before the desk opened, as a sandbox profile starts with (it fills an empty history only).
      const past = sandbox.past();
      if (past) createTradeHistory({ store, repos, ownIds: () => past.ownIds }).fillPast(past.events, past.ownIds);
      // Buy orders, in the ledger as if adopted earlier.
      const main = sandbox.accounts.main;
      repos.buyOrders.upsertMany(BUY_ORDERS.map((b, i) => ({ ...b, account: main, active: (i === 2 ? 0 : 1) as 0 | 1, user_note: i === 1 ? 'paying well for Burning Flames' : '' })));
      // Two listings the service no longer holds as the ledger had them.
      const listings = repos.listings.all();
      const [big, sold, gone, refusedDelete] = [listings[0], listings[3], listings[4], listings[5]];
      if (!big || !sold || !gone || !refusedDelete) throw new Error('the seeded ledger is too small');
      repos.listings.markEnded([sold.asset_id], 'sold_in_trade', { reason: 'sold in trade 6100028960', tradeId: '6100028960' });
      repos.listings.markEnded([gone.asset_id], 'not_on_service', {
        reason: 'edit_listing: the service refused the request (status 400): {"success":false,"error":"items.0.listing_id: no such listing"}',
      });
      // A listing at a price a large reprice takes far up.
      repos.listings.update(big.asset_id, { price: 76_525 });
      picked = { big: big.asset_id, refusedDelete: refusedDelete.asset_id };
    },
  });
  const { router, sandbox } = desk;
  const { big, refusedDelete } = picked ?? { big: '', refusedDelete: '' };
  const automated = () => until('automation', () => ok<{ status: string }>(router, 'heartbeat:state', {}), (h) => h.status === 'active');
  await ok(router, 'key:set', { key: sandbox.apiKey });
  await automated();
  await ok(router, 'accounts:refresh', {}).catch(() => undefined);

  // Trades that wait for the trader, of both kinds.
  sandbox.admin.addTrade({ trade_type: 'market', role: 'seller', status: 'Action Required' });
  sandbox.admin.addTrade({ trade_type: 'buy_order', status: 'confirmation_required' });
  await ok(router, 'trades:checkNow', {}).catch(() => undefined);

  // A draft whose first apply lost its answer: two creates sent, the response dropped.
  const draft = await ok<{ id: string }>(router, 'drafts:create', { name: 'Weekend repricing' });
  await ok(router, 'drafts:select', { draftId: draft.id });
  const inventory = sandbox.admin.inventory();
  const lost = inventory.slice(0, 2);
  await ok(router, 'drafts:addChanges', { changes: lost.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, sku: a.sku, price: 450, promoted: 0, game: '440' })) });
  sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
  await ok(router, 'drafts:apply', { draftId: draft.id });
  await until('an unknown outcome', () => ok<{ outcomes: unknown[] }>(router, 'apply:unknownOutcomes', {}), (v) => v.outcomes.length > 0);
  await until('the apply to end', () => ok<{ job: { state: string } | null }>(router, 'apply:state', {}), (v) => v.job !== null && !['running', 'paused', 'cancelling'].includes(v.job.state));
  sandbox.faults.set({ dropAfterProcess: false });

  // Then a week's work: a reprice of the whole ledger, a large one, new listings named by SKU, and one the service refused.
  const page0 = await ok<{ rows: Array<{ key: string }> }>(router, 'ledger:page', { domain: 'listings', offset: 0, limit: 500 });
  await ok(router, 'ledger:bulk', { domain: 'listings', selection: { ids: page0.rows.map((r) => r.key) }, op: { op: 'multiply', percent: 95, rounding: 'down' } });
  // Listings sold in scheduled trades meanwhile leave the reprice: enough creates keep the draft above a thousand changes.
  const creates = inventory.slice(2, 630);
  await ok(router, 'drafts:addChanges', {
    changes: [
      { kind: 'listing.edit', asset_id: big, price: 788_873 },
      // One pasted without its SKU: named once the service lists it.
      ...creates.map((a, i) => ({ kind: 'listing.create', asset_id: a.asset_id, ...(i === 3 ? {} : { sku: a.sku }), price: 450 + i, promoted: i % 7 === 0 ? 1 : 0, game: '440' })),
      { kind: 'buyOrder.edit', sku: '5021;6', price: 6_300, quantity: 45 },
      { kind: 'buyOrder.create', sku: '30911;5;u13', price: 19_900, quantity: 1, user_note: 'quick buy' },
    ],
  });
  const refused = creates[0];
  if (!refused) throw new Error('no inventory');
  await ok(router, 'drafts:addChanges', { changes: [{ kind: 'listing.delete', asset_id: refusedDelete }] });

  // Two changes an earlier apply had refused, as the profile records them: written while the desk is closed (a restart).
  await desk.reopen(({ repos }) => {
    repos.drafts.setStatus(draft.id, [`L:${refused.asset_id}`], 'failed', {
      kind: 'rejected', endpoint: 'create_listing', status: 400,
      message: 'create_listing: the service refused the request (status 400): {"success":false,"error":"items.0.asset_id: asset is not tradable"}',
    });
    repos.drafts.setStatus(draft.id, [`LD:${refusedDelete}`], 'failed', {
      kind: 'rejected', endpoint: 'delete_listing', status: 403,
      message: 'delete_listing: the account is not allowed to do this (status 403): {"success":false,"error":"marketplace ban"}',
    });
  });
  await automated();
  const summary = await ok<{ drafts: Array<{ changeCount: number; failedCount: number }> }>(router, 'drafts:list', {});
  expect(summary.drafts[0]?.changeCount ?? 0).toBeGreaterThanOrEqual(1_000);
  expect(summary.drafts[0]?.failedCount).toBe(2);

  return {
    desk,
    draftId: draft.id,
    bigPriceAsset: big,
    refusedAsset: refused.asset_id,
    refusedDeleteAsset: refusedDelete,
    close: () => desk.close(),
  };
}
