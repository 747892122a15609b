import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src-main/core/api/endpoints.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createLedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import { applyFixture } from './support.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

const start = applyFixture(600);

describe('the price guard on an apply', () => {
  it('marks a 95 % cut in the preview and the review, refuses to apply it unconfirmed, and applies exactly what was confirmed', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(40);
    s.adopt(listed.map((l) => ({ ...l, price: 300 })));
    const { id } = s.drafts.create('cut');
    s.drafts.select(id);
    const tables = createLedgerTables({ store: s.t.store, drafts: s.drafts, now: () => s.live.clock.now() });
    const chosen = { ids: listed.slice(0, 29).map((l) => l.asset_id) };
    const op = { op: 'multiply', percent: 5, rounding: 'nearest' } as const;
    const preview = await tables.preview('listings', chosen, op);
    expect(preview.guard).toEqual({
      drops: 29, belowFloor: 0, rises: 0, worstDrop: { key: listed[0]?.asset_id, before: 300, after: 15 }, worstRise: null,
    });
    await tables.bulk('listings', chosen, op);
    // A gentle edit of another listing is not marked.
    s.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: listed[35]?.asset_id ?? '', price: 290 }]);
    const review = await s.drafts.review(id);
    expect(review.guard.listings).toMatchObject({ drops: 29, worstDrop: { before: 300, after: 15 } });
    expect(review.guard.buyOrders).toMatchObject({ drops: 0, belowFloor: 0, rises: 0 });
    const rows = s.drafts.reviewPage(id, { show: 'open', offset: 0, limit: 100 }).rows;
    expect(rows.filter((r) => r.concern === 'drop')).toHaveLength(29);
    expect(rows.find((r) => r.target === listed[35]?.asset_id)?.concern).toBeNull();

    const writes = () => sandbox.log.requests.filter((q) => q.endpoint !== null && ENDPOINTS[q.endpoint].write).length;
    expect(() => s.apply.apply(id)).toThrow(/29 price changes the price guard marks/);
    // A confirmation of something else (an older state of the draft) is no confirmation.
    const stale = { listings: { drops: 28, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 }, undercuts: 0 };
    expect(() => s.apply.apply(id, { confirmGuard: stale })).toThrow(/price guard/);
    expect(writes()).toBe(0);
    expect(s.t.repos.journal.runs({ draftId: id })).toEqual([]);

    const confirmed = { listings: { drops: 29, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 }, undercuts: 0 };
    const final = await s.apply.apply(id, { confirmGuard: confirmed }).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 30, itemsFailed: 0 });
    const prices = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    for (const l of listed.slice(0, 29)) expect(prices.get(l.asset_id)).toBe(15);
  });

  it('marks prices under the floor and big rises, by the thresholds the trader set', async () => {
    const s = await start();
    const listed = s.live.sandbox.admin.seedListings(3);
    s.adopt(listed.map((l, i) => ({ ...l, price: [100, 100, 1_000][i] ?? 100 })));
    const changes: ChangeInput[] = [
      { kind: 'listing.edit', asset_id: listed[0]?.asset_id ?? '', price: 80 },
      { kind: 'listing.edit', asset_id: listed[1]?.asset_id ?? '', price: 1_100 },
      { kind: 'listing.edit', asset_id: listed[2]?.asset_id ?? '', price: 880 },
    ];
    const { id } = s.drafts.create('mixed');
    s.drafts.addChanges(id, changes);
    // The defaults: a cut of more than 30 %, a rise of more than 10×.
    expect(s.drafts.guard(id).listings).toMatchObject({ drops: 0, belowFloor: 0, rises: 1, worstRise: { before: 100, after: 1_100 } });
    const strict = createDraftService({ store: s.t.store, repos: s.t.repos, guard: () => ({ maxDropPercent: 10, floorCents: 90, maxRiseMultiple: 20 }) });
    expect(strict.guard(id).listings).toEqual({
      drops: 1, belowFloor: 1, rises: 0,
      worstDrop: { key: listed[0]?.asset_id, before: 100, after: 80 }, worstRise: null,
    });
  });

  it('marks a new listing priced 80 % under the same item’s lowest listing, and applies it only once confirmed', async () => {
    const s = await start();
    const { sandbox } = s.live;
    // The SKU the main account holds most of: two of them listed at $10.00, a third drafted at $2.00.
    const counts = new Map<string, number>();
    for (const a of sandbox.admin.inventory()) counts.set(a.sku, (counts.get(a.sku) ?? 0) + 1);
    const sku = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    s.adopt(sandbox.admin.seedListingsOf(2, (a) => a.sku === sku, 1_000));
    const free = sandbox.admin.inventory().find((a) => a.sku === sku);
    const other = sandbox.admin.inventory().find((a) => a.sku !== sku);
    if (!free || !other) throw new Error('the sandbox inventory has no free asset to list');
    const { id } = s.drafts.create('cheap');
    s.drafts.addChanges(id, [
      { kind: 'listing.create', asset_id: free.asset_id, sku, price: 200, promoted: 0, game: '440' },
      // An item with nothing to hold it against is not marked.
      { kind: 'listing.create', asset_id: other.asset_id, sku: other.sku, price: 1, promoted: 0, game: '440' },
    ]);
    const review = await s.drafts.review(id);
    expect(review.guard.undercuts).toEqual({ count: 1, worst: { key: free.asset_id, sku, price: 200, reference: { source: 'listing', cents: 1_000 } } });
    const rows = s.drafts.reviewPage(id, { show: 'open', offset: 0, limit: 100 }).rows;
    expect(rows.find((r) => r.target === free.asset_id)).toMatchObject({ concern: 'under', reference: { source: 'listing', cents: 1_000 } });
    expect(rows.find((r) => r.target === other.asset_id)?.concern).toBeNull();

    const none = { listings: { drops: 0, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 } };
    expect(() => s.apply.apply(id)).toThrow(/1 new listing priced far under the item's lowest listing or last sale/);
    expect(() => s.apply.apply(id, { confirmGuard: { ...none, undercuts: 0 } })).toThrow(/price guard|priced far under/);
    const final = await s.apply.apply(id, { confirmGuard: { ...none, undercuts: 1 } }).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 2, itemsFailed: 0 });
  });
});
