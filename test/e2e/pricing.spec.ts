import { expect, test } from '@playwright/test';
import { createCostLedger } from '../../src-main/core/costs/cost-ledger.ts';
import type { PricingState, RepricePage } from '../../src-shared/contract.ts';
import { expectedMark, expectedPrice, isStrangeWeapon, sellCents } from '../support/reprice-expect.ts';
import { adopt, startTestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, screenshotsIn } from './harness.ts';

/**
 * Pricing as a trader uses it, in Chromium against the simulator, over 500
 * listings: the
 * pricedb source read (its state on screen), a rule "Strange weapons:
 * pricedb sell −3 %, round to x.99, floor cost + 5 %" written in the form,
 * Reprice now into a draft whose rows show their reasons in the review;
 * every price worked out here from the simulator's answer and costs; the
 * guard marks the deep cuts and the under-cost rows; applied, the listings
 * stand at those prices; Listings shows each one's cost and margin. At
 * 1024×700 and 1920×1080; pictures go to test-results/pricing.
 */

/** 500 Strange weapons: 300 listed at $1.50 (cheap ones come out as deep cuts), 200 a tenth over their new price (gentle cuts, some lifted by the floor under cost + margin). */
const CHEAP = 300;
const GENTLE = 200;
const server = rendererForSpecs();

const shot = screenshotsIn('pricing');

for (const viewport of [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }]) {
  test(`reprices Strange weapons by a rule, with every row's reason, and applies them (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const listedAt = new Map<string, number>();
    const desk = await startTestDesk({
      timeScale: 60,
      tradeSchedule: false,
      // Enough Strange weapons among the items (about one in sixteen).
      inventorySize: 12_000,
      seed: ({ store, repos, sandbox }) => {
        const cheap = sandbox.admin.seedListingsOf(CHEAP, (a) => isStrangeWeapon(a.sku), 150);
        for (const l of cheap) listedAt.set(l.asset_id, 150);
        const more = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku) && !listedAt.has(a.asset_id)).slice(0, GENTLE);
        const gentle = more.flatMap((a) => {
          const at = Math.round(expectedPrice(sellCents(sandbox.pricedb, a.sku), sandbox.pricedb.cost(a.sku), 3, 5).price * 1.1) + 1;
          listedAt.set(a.asset_id, at);
          return sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, at);
        });
        const listed = [...cheap, ...gentle];
        adopt(repos, sandbox, listed);
        // What each cost, as a trader enters it for items bought before the desk kept records.
        const units = new Map<string, number>();
        for (const l of listed) units.set(l.sku, (units.get(l.sku) ?? 0) + 1);
        createCostLedger({ store }).setManual([...units].map(([sku, quantity]) => ({ sku, unitCost: sandbox.pricedb.cost(sku), quantity })));
      },
    });
    const { sandbox } = desk;
    try {
      await desk.ask('key:set', { key: sandbox.apiKey });
      const page = await browser.newPage({ viewport });
      const { errors } = await openDesk(page, desk.router, server(), 'pricing');

      // The source: read now, fresh, its prices counted.
      const sources = page.getByRole('table', { name: 'Price sources' });
      await page.getByRole('button', { name: 'Read now' }).click();
      await expect(sources.locator('[data-source=pricedb]')).toContainText('fresh', { timeout: 30_000 });
      await expect(sources.locator('[data-source=pricedb]')).toContainText(/[1-9]\d* prices/);
      await shot(page, `${viewport.width}-1-source`);

      // The rule, written in the form.
      await page.getByRole('button', { name: 'Add a rule…' }).click();
      const form = page.getByRole('form', { name: 'New repricing rule' });
      await form.getByLabel('Name', { exact: true }).fill('Strange weapons');
      await form.getByLabel('Strange', { exact: true }).check();
      await form.getByLabel('weapons', { exact: true }).check();
      await form.getByLabel('Offset (%)').fill('-3');
      await form.getByLabel('Floor: cost + (%)').fill('5');
      await shot(page, `${viewport.width}-2-rule-form`);
      await form.getByRole('button', { name: 'Add rule' }).click();
      const rules = page.getByRole('table', { name: 'Repricing rules' });
      await expect(rules).toContainText('pricedb.io sell, −3 %, round to x.99, floor cost + 5 %');

      // Reprice now: a draft, made current, shown with why each price moved.
      await page.getByRole('button', { name: 'Reprice now' }).click();
      await expect(page.getByRole('heading', { name: 'Why each price moved' })).toBeVisible({ timeout: 30_000 });
      const state = await desk.ask('pricing:state', {}) as PricingState;
      const run = state.runs[0];
      const readAt = state.sources[0]?.readAt ?? 0;
      expect(run?.kind).toBe('now');
      const rows = (await desk.ask('pricing:page', { runId: run?.id ?? 0, outcome: 'change', limit: 500 }) as RepricePage).rows;
      const inventory = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.sku]));
      const expected = new Map<string, number>();
      const marks = new Map<string, number>();
      for (const [asset, before] of listedAt) {
        const sku = inventory.get(asset) ?? '';
        const cost = sandbox.pricedb.cost(sku);
        const want = expectedPrice(sellCents(sandbox.pricedb, sku, readAt), cost, 3, 5).price;
        if (want === before) continue;
        expected.set(asset, want);
        const mark = expectedMark(before, want, cost);
        if (mark !== null) marks.set(mark, (marks.get(mark) ?? 0) + 1);
        const row = rows.find((r) => r.key === asset);
        expect({ asset, after: row?.after, mark: row?.mark ?? null }).toEqual({ asset, after: want, mark });
      }
      expect(rows).toHaveLength(expected.size);
      expect(expected.size).toBeGreaterThan(CHEAP);
      // The guard marks the deep cuts and the rows under cost (or under cost plus its margin).
      expect(marks.get('drop') ?? 0).toBeGreaterThan(0);
      expect((marks.get('under_cost') ?? 0) + (marks.get('under_margin') ?? 0)).toBeGreaterThan(0);
      // The reasons on screen, row by row.
      const reasons = page.getByRole('table', { name: 'The reprice\'s changes with their reasons' });
      await expect(reasons.locator('tbody tr')).toHaveCount(Math.min(expected.size, 100));
      await expect(reasons.locator('tbody tr').first()).toContainText(/pricedb\.io sell \d+\.\d\d, −3 %, round to x\.99/);
      await shot(page, `${viewport.width}-3-draft-reasons`);

      // Apply: the guard asks about the marked rows; confirmed, every listing stands at its price.
      await page.getByRole('button', { name: `Apply ${expected.size} changes` }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Apply these price changes?' });
      await expect(dialog).toBeVisible();
      await shot(page, `${viewport.width}-4-guard`);
      await dialog.getByRole('checkbox', { name: 'I checked these prices and mean them' }).check();
      await dialog.getByRole('button', { name: 'Apply these prices' }).click();
      await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
      const live = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
      for (const [asset, price] of expected) expect({ asset, price: live.get(asset) }).toEqual({ asset, price });

      // Listings: each one's cost and its margin at its price.
      await page.keyboard.press('Alt+2');
      const grid = page.getByRole('grid', { name: 'Listings' });
      await expect(grid.locator('[role=row][data-key]').first()).toContainText(/\$\d+\.\d\d, [+−]\d+ %/);
      await shot(page, `${viewport.width}-5-listings-costs`);

      // Costs the desk cannot know, by CSV: set, and a line refused with why.
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Pricing' }).click();
      const sku = inventory.get([...listedAt.keys()][0] ?? '') ?? '';
      await page.getByLabel('Costs CSV file').setInputFiles({ name: 'costs.csv', mimeType: 'text/csv', buffer: Buffer.from(`sku,cost,quantity\n${sku},4.25,2\n${sku},lots,1\n`) });
      await expect(page.getByRole('status').filter({ hasText: 'Set the costs' })).toContainText('Set the costs of 2 units of 1 item.');
      await expect(page.getByRole('list', { name: 'Refused cost lines' })).toContainText('line 3');
      await shot(page, `${viewport.width}-6-costs-import`);
      expect(errors).toEqual([]);
    } finally {
      await desk.close();
    }
  });
}
