import { describe, expect, it } from 'vitest';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createPricingService } from '../../../src-main/core/pricing/pricing-service.ts';
import { REPRICE_PART } from '../../../src-main/core/pricing/reprice-job.ts';
import { readPragma } from '../../../src-main/core/store/db.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';
import { applyFixture } from '../apply/support.ts';
import { isStrangeWeapon } from '../../support/reprice-expect.ts';

const start = applyFixture(60, { live: { sandbox: { pastDays: 0, inventorySize: 6_000 } } });
/** SQLite's `synchronous`: 1 is NORMAL (a commit does not wait for the disk), 2 FULL. */
const FULL = 2;
const NORMAL = 1;

describe('a reprice writes its draft a part at a time', () => {
  it('in small parts, the first smallest (its code not compiled yet), none waiting for the disk, the built run durable as every write', async () => {
    const s = await start();
    const { sandbox } = s.live;
    s.adopt(sandbox.admin.seedListingsOf(400, (a) => isStrangeWeapon(a.sku), 150));
    const drafts = createDraftService({ store: s.t.store, repos: s.t.repos });
    const parts: { changes: number; synchronous: unknown }[] = [];
    const addChanges = drafts.addChanges.bind(drafts);
    drafts.addChanges = (id, inputs) => {
      parts.push({ changes: inputs.length, synchronous: readPragma(s.t.store, 'synchronous') });
      return addChanges(id, inputs);
    };
    const pricing = createPricingService({
      store: s.t.store, repos: s.t.repos, clock: s.live.clock, drafts, costs: { nextCosts: () => new Map() }, names: null, guard: () => DEFAULT_PRICE_GUARD, pricedbUrl: sandbox.pricedb.url,
    });
    await pricing.sources.readNow('pricedb');
    pricing.addRule({
      name: 'Strange weapons', enabled: true, scope: { by: 'filter', label: 'Strange weapons', filter: { qualities: [11] } },
      intent: 'sell', source: 'pricedb', sides: { listings: 'sell', buyOrders: 'buy' }, offset: { percent: -3, cents: 0 },
      rounding: { mode: 'nearest', step: { size: 100, offset: 99 } }, minCents: null, maxCents: null, floor: null, maxAgeHours: 24, maxHeld: null,
    });
    const result = await pricing.repriceNow();
    expect(result.changed).toBeGreaterThan(REPRICE_PART);
    expect(drafts.entries(result.draftId ?? '')).toHaveLength(result.changed);
    // Parts of 10, 20, 40, 80 rows, then REPRICE_PART: each writes the changes of its rows.
    expect(parts.length).toBeGreaterThanOrEqual(5);
    expect(parts[0]?.changes).toBeLessThanOrEqual(10);
    expect(parts.slice(0, 4).map((p, i) => p.changes <= 10 * 2 ** i)).toEqual([true, true, true, true]);
    expect(Math.max(...parts.map((p) => p.changes))).toBeLessThanOrEqual(REPRICE_PART);
    expect(parts.reduce((sum, p) => sum + p.changes, 0)).toBe(result.changed);
    expect(new Set(parts.map((p) => p.synchronous))).toEqual(new Set([NORMAL]));
    expect(readPragma(s.t.store, 'synchronous')).toBe(FULL);
    drafts.dispose();
    await pricing.stop();
  });
});
