import { describe, expect, it } from 'vitest';
import { call } from '../support/router-call.ts';
import { routerDeskFixture } from '../support/live-desk.ts';
import { until } from '../support/until.ts';
import { isStrangeWeapon, strangeWeaponsRule } from '../support/reprice-expect.ts';

/**
 * Pricing over the bridge, as its screen uses it: the sources with their
 * state, a rule, Reprice now into a draft whose rows say why, the costs a
 * listing shows; each change answered with the state and pushed as
 * `pricing:changed`.
 */

const open = routerDeskFixture('pricing-ipc-');

describe('pricing over the bridge', () => {
  it('reads the source, keeps a rule, reprices into a draft whose rows say why, and shows costs', async () => {
    const { router, desk, service: sb, events } = await open({ scale: 60, sandbox: { seed: 5, pastDays: 0, inventorySize: 3_000 } });
    const listed = sb.admin.seedListingsOf(20, (a) => isStrangeWeapon(a.sku), 150);
    desk.workspace().repos.listings.upsertMany(listed.map((l) => ({
      asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, user_note: '', account: l.account, state: l.state,
    })));

    const first = await call(router, 'pricing:state', {});
    expect(first.sources.map((s) => [s.id, s.config.kind])).toEqual([['pricedb', 'pricedb']]);
    await call(router, 'pricing:readNow', {});
    const skus = new Set(listed.map((l) => l.sku)).size;
    const read = await until('the source read with the listings\' SKUs', async () => {
      const s = await call(router, 'pricing:state', {});
      return s.sources[0]?.state === 'fresh' && (s.sources[0]?.prices ?? 0) >= skus ? s : null;
    });
    expect(read.sources[0]).toMatchObject({ problem: null, prices: expect.any(Number) });
    expect(read.sources[0]?.readAt).not.toBeNull();
    expect(read.stamp).toBeGreaterThan(first.stamp);
    // Pushed at most every quarter second, as the ledger's changes are.
    await until('pricing:changed pushed', () => events.some((e) => e.event === 'pricing:changed'));

    const withRule = await call(router, 'pricing:addRule', {
      rule: strangeWeaponsRule({ floor: null }),
    });
    expect(withRule.rules.map((r) => r.rule.name)).toEqual(['Strange weapons']);

    const run = await call(router, 'pricing:repriceNow', {});
    expect(run).toMatchObject({ kind: 'now', changed: expect.any(Number) });
    expect(run.changed + run.held + run.unchanged).toBe(listed.length);
    expect(run.changed).toBeGreaterThan(0);
    const page = await call(router, 'pricing:page', { runId: run.id, outcome: 'change' });
    expect(page.total).toBe(run.changed);
    for (const row of page.rows) expect(row.reason).toMatch(/^pricedb\.io sell \d+\.\d\d, −3 %, round to x\.99/);
    // The draft is the current one, its changes the rows the reprice listed.
    const drafts = await call(router, 'drafts:list', {});
    expect(drafts.currentId).toBe(run.draftId);

    // No cost known yet; one set by hand shows.
    const sku = listed[0]?.sku ?? '';
    expect((await call(router, 'costs:of', { skus: [sku] })).costs).toEqual([{ sku, unitCost: null, held: 0 }]);
    // Set by CSV: a SKU at a price in dollars, the same item by its name; a line that is not a price is refused, named.
    const name = desk.workspace().names?.name(sku) ?? sku;
    const imported = await call(router, 'costs:importCsv', { text: `sku,name,cost,quantity\n${sku},,12.34,2\n,"${name}",12.50,1\n${sku},,twelve,1\n` });
    expect(imported).toMatchObject({ skus: 1, units: 3, refusedCount: 1 });
    expect(imported.refused[0]?.line).toBe(4);
    expect((await call(router, 'costs:of', { skus: [sku] })).costs).toEqual([{ sku, unitCost: 1_234, held: 3 }]);
  });

  it('refuses a rule that follows a source that is not there, naming it', async () => {
    const { router } = await open({ scale: 60, sandbox: { seed: 6, pastDays: 0 } });
    const refused = await router.invoke('pricing:addRule', {
      rule: {
        name: 'x', enabled: true, scope: { by: 'sku', sku: '5021;6' }, intent: 'sell', source: 'nowhere', sides: { listings: 'sell', buyOrders: 'buy' },
        offset: { percent: 0, cents: 0 }, rounding: { mode: 'nearest', step: null }, minCents: null, maxCents: null, floor: null, maxAgeHours: null, maxHeld: null,
      },
    });
    expect(refused.ok === false && refused.error.message).toMatch(/nowhere/);
  });
});
