import { describe, expect, it } from 'vitest';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createPricingService } from '../../../src-main/core/pricing/pricing-service.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { applyFixture } from '../apply/support.ts';
import { isStrangeWeapon, strangeWeaponsRule } from '../../support/reprice-expect.ts';

const start = applyFixture(60, { live: { sandbox: { pastDays: 0, inventorySize: 6_000 } } });

describe('a rule whose price source is turned off', () => {
  it('prices nothing and says why on every row, though the source\'s last prices are kept and the rule sets no age limit; turned on again, the rule prices', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListingsOf(40, (a) => isStrangeWeapon(a.sku), 150);
    s.adopt(listed);
    const drafts = createDraftService({ store: s.t.store, repos: s.t.repos });
    const pricing = createPricingService({
      store: s.t.store, repos: s.t.repos, clock: s.live.clock, drafts, costs: { nextCosts: () => new Map() }, names: null, guard: () => DEFAULT_PRICE_GUARD, pricedbUrl: sandbox.pricedb.url,
    });
    await pricing.sources.readNow('pricedb');
    // No age limit: the prices kept from the last read would do for this rule whatever their age.
    pricing.addRule(strangeWeaponsRule({ floor: null, maxAgeHours: null }));
    const config = pricing.sources.list()[0]?.config;
    if (config?.kind !== 'pricedb') throw new Error('no pricedb source');
    expect(pricing.sources.prices('pricedb', listed.map((l) => l.sku)).size).toBeGreaterThan(0);

    pricing.sources.change('pricedb', { ...config, enabled: false });
    const off = await pricing.repriceNow();
    expect(off).toMatchObject({ changed: 0, marked: 0, held: listed.length, draftId: null });
    const held = pricing.page(off.runId, null, 0, 100).rows;
    expect(held).toHaveLength(listed.length);
    expect(new Set(held.map((r) => `${r.outcome}: ${r.reason}`))).toEqual(new Set(['held: pricedb.io is turned off: its rules price nothing until it is turned on']));
    expect(drafts.list()).toEqual([]);

    pricing.sources.change('pricedb', { ...config, enabled: true });
    const on = await pricing.repriceNow();
    expect(on.changed).toBeGreaterThan(0);
    expect(on.changed + on.unchanged + on.held).toBe(listed.length);
    expect(pricing.page(on.runId, 'change', 0, 100).rows.every((r) => r.reason.startsWith('pricedb.io sell '))).toBe(true);
    drafts.dispose();
    await pricing.stop();
  });
});
