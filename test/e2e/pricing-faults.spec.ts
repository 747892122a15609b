import { expect, test } from '@playwright/test';
import { createCostLedger } from '../../src-main/core/costs/cost-ledger.ts';
import type { PricingState, RepricePage } from '../../src-shared/contract.ts';
import { expectedPrice, isStrangeWeapon, sellCents, strangeWeaponsRule } from '../support/reprice-expect.ts';
import { adopt, startTestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, screenshotsIn } from './harness.ts';

/**
 * The price source's faults as a trader meets them on the Pricing screen, in
 * Chromium against the simulator's pricedb.io: a malformed answer (the
 * source and the field named, the prices kept), a 429 storm (said, the next
 * read pushed out), an outage (failing, then stale with the prices' age;
 * a reprice with prices past the rule's age moves nothing and says why), and
 * three items' ×6 jump read again as it drifts (marked "source jumped", not applied);
 * and the source turned off from the keyboard, asked nothing after, its rule
 * pricing nothing from the prices it kept.
 * The desk and the simulator run 600 times faster (a source's half-hour
 * interval is 3 s). At 1024×700 and 1920×1080; pictures go to
 * test-results/pricing-faults.
 */

const LISTED = 20;
const HOUR = 3_600_000;
const server = rendererForSpecs();

const shot = screenshotsIn('pricing-faults');

for (const viewport of [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }]) {
  test(`shows each fault of the price source in a clear state, and leaves a jump to the trader (${viewport.width}×${viewport.height})`, async ({ browser }) => {
    test.setTimeout(180_000);
    const skus = new Map<string, string>();
    const desk = await startTestDesk({
      timeScale: 600,
      tradeSchedule: false,
      inventorySize: 4_000,
      seed: ({ store, repos, sandbox }) => {
        // Strange weapons of $10 or more, a tenth over what the rule makes of them: gentle cuts the guard lets through.
        const items = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku) && sellCents(sandbox.pricedb, a.sku) >= 1_000).slice(0, LISTED);
        const listed = items.flatMap((a) => {
          skus.set(a.asset_id, a.sku);
          return sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, Math.round(expectedPrice(sellCents(sandbox.pricedb, a.sku), sandbox.pricedb.cost(a.sku), 3, 5).price * 1.1) + 1);
        });
        adopt(repos, sandbox, listed);
        createCostLedger({ store }).setManual(listed.map((l) => ({ sku: l.sku, unitCost: sandbox.pricedb.cost(l.sku), quantity: 1 })));
      },
    });
    const { sandbox } = desk;
    const faults = sandbox.pricedb.faults;
    try {
      expect(skus.size).toBe(LISTED);
      await desk.ask('key:set', { key: sandbox.apiKey });
      const ruleId = (await desk.ask('pricing:addRule', { rule: strangeWeaponsRule({ maxAgeHours: 1 }) }) as PricingState).rules[0]?.id ?? 0;
      const page = await browser.newPage({ viewport });
      const { errors } = await openDesk(page, desk.router, server(), 'pricing');
      const source = page.getByRole('table', { name: 'Price sources' }).locator('[data-source=pricedb]');
      const readNow = () => page.getByRole('button', { name: 'Read now' }).click();
      await readNow();
      await expect(source).toContainText('fresh', { timeout: 30_000 });
      const held = (await desk.ask('pricing:state', {}) as PricingState).sources[0]?.prices ?? 0;
      expect(held).toBeGreaterThan(1);

      // A malformed answer: the source and the field named, its prices kept.
      faults.malformed = { count: 1_000, kind: 'wrong_type' };
      await readNow();
      await expect(source).toContainText(/pricedb\.io: the answer does not fit: \d+\.sell\.metal/);
      await expect(source).toContainText(`${held} prices`);
      await shot(page, `${viewport.width}-1-malformed`);
      faults.malformed = null;

      // A 429 storm: said, and the next read waits for what the source asked.
      faults.storm429 = { until: sandbox.admin.now() + 10 * HOUR, retryAfterSec: 600 };
      await readNow();
      await expect(source).toContainText('pricedb.io asked the desk to slow down (429)');
      await expect(source).toContainText('failing');
      await shot(page, `${viewport.width}-2-storm`);
      faults.storm429 = null;

      // An outage: failing with the status, then stale with its prices' age once two intervals pass, the prices kept.
      faults.outage = { until: sandbox.admin.now() + 10 * HOUR };
      await readNow();
      await expect(source).toContainText('pricedb.io is not answering as it should: it answered 503', { timeout: 30_000 });
      await expect(source).toContainText('stale', { timeout: 30_000 });
      await expect(source).toContainText(/its prices date from/);
      await expect(source).toContainText(`${held} prices`);
      await shot(page, `${viewport.width}-3-outage-stale`);
      // Reprice with every price past the rule's hour: nothing moves, each row says why.
      await expect.poll(async () => {
        const oldest = (await desk.ask('pricing:state', {}) as PricingState).sources[0]?.oldestPricedAt ?? Infinity;
        return sandbox.admin.now() - oldest;
      }, { timeout: 30_000 }).toBeGreaterThan(HOUR + 60_000);
      await page.getByRole('button', { name: 'Reprice now' }).click();
      const runs = page.getByRole('region', { name: 'Reprices' });
      await expect(runs).toContainText(`0 changes, 0 marked, ${LISTED} held`, { timeout: 30_000 });
      await runs.getByRole('button', { name: 'Why held…' }).first().click();
      const heldRows = page.getByRole('table', { name: /^Rows held by the reprice of / });
      await expect(heldRows.locator('tbody tr')).toHaveCount(LISTED);
      await expect(heldRows.locator('tbody tr').first()).toContainText(/pricedb\.io priced it \d h( \d+ min)? ago, older than the rule's 1 h: it stays/);
      await shot(page, `${viewport.width}-4-stale-held`);
      faults.outage = null;
      // The source prices on the hour, so a fresh price is up to an hour old: with the rule's one hour (6 s here) a
      // reprice a moment after the read could find every price past it. The jump is judged against a day.
      await desk.ask('pricing:changeRule', { id: ruleId, rule: strangeWeaponsRule({ maxAgeHours: 24 }) });

      // A jump: three items' source price ×6, read, drifted and read again; the reprice marks them and applies nothing.
      const jumpedSkus = [...new Set(skus.values())].slice(0, 3);
      const jumped = [...skus].filter(([, sku]) => jumpedSkus.includes(sku));
      const jump = (drift: number) => jumpedSkus.forEach((sku) => faults.jumps.set(sku, { factor: 6 * drift, from: sandbox.admin.now() }));
      jump(1);
      await readNow();
      await expect(source).toContainText('fresh', { timeout: 30_000 });
      jump(1.04);
      // Read through the desk's call, which returns once the read is in: the reprice below must see it.
      await desk.ask('pricing:readNow', {});
      const before = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
      await page.getByRole('button', { name: 'Reprice now' }).click();
      await expect(page.getByRole('heading', { name: 'Why each price moved' })).toBeVisible({ timeout: 30_000 });
      const run = (await desk.ask('pricing:state', {}) as PricingState).runs[0];
      const rows = (await desk.ask('pricing:page', { runId: run?.id ?? 0, outcome: 'change', limit: 500 }) as RepricePage).rows;
      for (const [asset] of jumped) {
        const row = rows.find((r) => r.key === asset);
        expect({ asset, mark: row?.mark }).toEqual({ asset, mark: 'jump' });
        expect(row?.reason).toMatch(/; pricedb\.io sell jumped ×6\.\d from its steady \d+\.\d\d to \d+\.\d\d$/);
      }
      const reasons = page.getByRole('table', { name: 'The reprice\'s changes with their reasons' });
      await expect(reasons.locator('tbody tr').filter({ hasText: 'source jumped' })).toHaveCount(jumped.length);
      await shot(page, `${viewport.width}-5-jump-marked`);
      // Nothing went to the service: a reprice by hand is a draft until the trader applies it.
      for (const [asset] of jumped) expect(sandbox.admin.listings().find((l) => l.asset_id === asset)?.price).toBe(before.get(asset));

      // Turned off from the keyboard: asked nothing over two of its intervals (6 s here) nor by Read now, its prices kept.
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Pricing' }).click();
      const onOff = source.getByRole('checkbox', { name: 'Read pricedb.io every 30 min' });
      await onOff.focus();
      await page.keyboard.press('Space');
      await expect(source).toContainText('off: not read');
      await expect(onOff).not.toBeChecked();
      const asked = sandbox.pricedb.log.requests.length;
      await page.waitForTimeout(6_500);
      await readNow();
      await expect(page.getByRole('button', { name: 'Read now' })).toBeEnabled();
      expect(sandbox.pricedb.log.requests.length).toBe(asked);
      await expect(source).toContainText(`${held} prices`);
      await shot(page, `${viewport.width}-6-off`);
      // Its rule prices nothing from the prices kept: the rule's line says so, and a reprice holds its rows, saying why
      // (the jump's draft discarded first: a row in another draft is held for that).
      await desk.ask('drafts:discard', { draftId: run?.draftId ?? '' });
      await expect(page.getByRole('table', { name: 'Repricing rules' })).toContainText('pricedb.io (turned off: prices nothing) sell');
      const runsBefore = await runs.getByRole('listitem').count();
      await page.getByRole('button', { name: 'Reprice now' }).click();
      await expect(runs.getByRole('listitem')).toHaveCount(runsBefore + 1, { timeout: 30_000 });
      const newest = runs.getByRole('listitem').first();
      await expect(newest).toContainText(`0 changes, 0 marked, ${LISTED} held`);
      await newest.getByRole('button', { name: 'Why held…' }).focus();
      await page.keyboard.press('Enter');
      const offRows = page.getByRole('table', { name: /^Rows held by the reprice of / }).locator('tbody tr');
      await expect(offRows.filter({ hasText: 'pricedb.io is turned off: its rules price nothing until it is turned on' })).toHaveCount(LISTED);
      await shot(page, `${viewport.width}-7-off-held`);
      expect(errors).toEqual([]);
    } finally {
      await desk.close();
    }
  });
}
