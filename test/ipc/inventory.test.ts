import { describe, expect, it } from 'vitest';
import type { ChannelOutput } from '../../src-shared/contract.ts';
import { call } from '../support/router-call.ts';
import { routerDeskFixture } from '../support/live-desk.ts';

/**
 * The inventory over the bridge, as the picker uses it: a read started and
 * never waited for (its progress pushed as events), pages and drafts answered
 * from the store, and nothing else in the desk held up by Steam.
 */

const open = routerDeskFixture('inventory-ipc-');
// A minute of the desk lasts a second: the gap between Steam requests takes ~17 ms.
const liveDesk = () => open({ scale: 60, sandbox: { seed: 31, inventorySize: 3_000 } });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 3_000; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}

describe('inventory over the bridge', () => {
  it('starts a read without waiting for it, pushes its progress, then pages and drafts from what was kept', async () => {
    const { router, service: sb, events } = await liveDesk();
    const first = await call(router, 'inventory:state', { ensureFresh: true });
    expect(first.accounts.map((a) => a.account)).toEqual([sb.accounts.main, ...sb.accounts.linked]);
    expect(first.accounts.every((a) => a.phase === 'waiting' || a.phase === 'reading')).toBe(true);
    const done = await until(() => call(router, 'inventory:state', {}), (s) => s.accounts.every((a) => a.phase === 'done'));
    expect(done.accounts[0]?.items).toBe(sb.admin.inventory().length);
    const pushed = events.filter((e) => e.event === 'inventory:changed').map((e) => e.payload as { stamp: number; items: boolean });
    expect(pushed.filter((p) => p.items).length).toBe(4);
    expect(pushed.map((p) => p.stamp)).toEqual([...pushed.map((p) => p.stamp)].sort((a, b) => a - b));

    const page: ChannelOutput<'inventory:page'> = await call(router, 'inventory:page', { filter: { text: 'unusual', account: sb.accounts.main }, limit: 50 });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.stamp).toBeGreaterThanOrEqual(pushed.at(-1)?.stamp ?? 0);
    const picked = page.rows.slice(0, 3).map((r) => r.key);
    const drafted = await call(router, 'inventory:draft', {
      selection: { ids: picked }, pricing: { from: 'fixed', cents: 4_200 }, extras: { promoted: 1, user_note: 'from the picker' },
    });
    expect(drafted).toMatchObject({ added: 3, errorCount: 0, minPrice: 4_200, maxPrice: 4_200 });
    // The drafted rows are on the Listings screen under their names, found by a name search.
    const name = page.rows[0]?.item.name ?? '';
    const listings = await call(router, 'ledger:page', { domain: 'listings', filter: { text: name } });
    expect(listings.rows.map((r) => r.key)).toContain(picked[0]);
    expect(listings.rows.find((r) => r.key === picked[0])?.item?.name).toBe(name);
  });

  it('refuses a malformed request naming the field, and flags typed asset IDs the inventory does not hold', async () => {
    const { router, service: sb } = await liveDesk();
    const refused = await router.invoke('inventory:draft', { selection: { ids: ['12x'] }, pricing: { from: 'fixed', cents: 100 } });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/selection/);
    const fixed = await router.invoke('inventory:preview', { selection: { ids: [] }, pricing: { from: 'fixed', cents: null } });
    expect(fixed.ok === false && fixed.error.message).toMatch(/pricing\.cents: a fixed price needs its amount/);

    await call(router, 'inventory:refresh', {});
    await until(() => call(router, 'inventory:state', {}), (s) => s.accounts.every((a) => a.phase === 'done'));
    const own = sb.admin.inventory()[0]?.asset_id ?? '';
    const check = await call(router, 'inventory:checkAssets', { assetIds: [own, '123'] });
    expect(check.rows.map((r) => r.found)).toEqual(['here', 'not_found']);
  });

  it('holds nothing else up while Steam keeps a read waiting', async () => {
    const { router, service: sb } = await liveDesk();
    // Steam answers after ten minutes of the desk's time (ten seconds here).
    sb.faults.set({ inventoryDelayMs: { ms: 10 * 60_000, count: 1 } });
    await call(router, 'inventory:refresh', {});
    // The first request is with Steam, which holds it.
    await until(async () => sb.log.inventoryPending, (n) => n === 1);
    const asset = sb.admin.inventory()[5]?.asset_id ?? '';
    const answers = await Promise.all([
      call(router, 'inventory:state', {}),
      call(router, 'inventory:page', {}),
      call(router, 'ledger:page', { domain: 'listings' }),
      call(router, 'drafts:addChanges', { changes: [{ kind: 'listing.create', asset_id: asset, price: 300, promoted: 0 }] }),
      call(router, 'accounts:list', {}),
      call(router, 'balance:refresh', {}),
      call(router, 'heartbeat:beatNow', {}),
    ]);
    // Every call above was answered while Steam still held the read's first request.
    expect([sb.log.inventoryPending, sb.log.inventoryRequests.length]).toEqual([1, 0]);
    expect(answers[0].accounts[0]?.phase).toBe('reading');
    expect(answers[1].total).toBe(0);
    expect(answers[3].added).toBe(1);
    expect(answers[6].status).not.toBe('off');
  });
});
