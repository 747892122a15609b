import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { formatCents } from '../../src-shared/money.ts';
import { partnerOf } from '../../src-shared/trade-url.ts';
import { startTestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, goToScreen as go } from './harness.ts';

/**
 * The day a trader has: set the key, see the balance, draft 1,200 listings
 * from asset IDs, reprice 1,000 of them, review, apply at the rate limit and
 * watch it finish, answer a trade, give a linked account its trade URL, and
 * find the draft intact after the app is killed and reopened.
 */

const server = rendererForSpecs();

test('set a key, draft and apply 1,200 listings, answer a trade, set a trade URL, reopen with the draft intact', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  let desk = await startTestDesk({ dataDir, timeScale: 60 });
  try {
    const { sandbox } = desk;
    const { errors } = await openDesk(page, desk.router, server());

    // Settings: the key goes in once; the desk shows only its last four characters.
    await go(page, 9);
    await page.locator('#api-key').fill(sandbox.apiKey);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`Set, ends in ••${sandbox.apiKey.slice(-4)}`);
    await expect(page.locator('#api-key')).toHaveValue('');

    // Overview: the balance the service holds.
    await go(page, 1);
    const balance = page.getByTestId('balance');
    await expect(balance).toHaveText(formatCents(sandbox.admin.balance().balance), { timeout: 20_000 });

    // Listings: 1,200 creates from pasted asset IDs, into a draft.
    const assets = sandbox.admin.inventory().slice(0, 1200).map((a: { asset_id: string }) => a.asset_id);
    expect(assets).toHaveLength(1200);
    await go(page, 2);
    await page.getByRole('button', { name: 'Create…' }).click();
    await page.getByRole('tab', { name: 'Asset IDs' }).click();
    await page.getByLabel('Asset IDs, one per line').fill(assets.join('\n'));
    await page.getByLabel('Price for all').fill('4.50');
    await page.getByRole('button', { name: 'Add 1,200 listings to draft' }).click();
    await expect(page.getByText('1,200 listings added to the draft at $4.50.')).toBeVisible();

    // Reprice 1,000 of them: click the first, shift-click the 1,000th.
    const grid = page.getByRole('grid', { name: 'Listings' });
    await grid.locator(`[role=row][data-key="${assets[0]}"]`).click();
    await grid.locator('.vt-scroller').evaluate((el) => (el.scrollTop = 999 * 28 - 200));
    await grid.locator(`[role=row][data-key="${assets[999]}"]`).click({ modifiers: ['Shift'] });
    await expect(page.getByText(/· 1,000 selected/)).toBeVisible();
    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    await page.getByLabel('Operation').selectOption('multiply');
    await page.getByLabel('Percent').fill('90');
    await page.getByRole('button', { name: 'Add to draft' }).click();
    await expect(page.getByText('1,000 listings changed in the draft.')).toBeVisible();
    const search = page.getByLabel('Search listings');
    await search.fill(assets[0] as string);
    await expect(grid.locator(`[role=row][data-key="${assets[0]}"]`)).toContainText('$4.05');
    await search.fill(assets[1100] as string);
    await expect(grid.locator(`[role=row][data-key="${assets[1100]}"]`)).toContainText('$4.50');
    await search.fill('');

    // Review, then apply with Ctrl+Enter; the bar moves to done.
    await go(page, 7);
    const review = page.getByRole('region', { name: 'Review' });
    await expect(review).toContainText('1,200');
    await expect(page.getByRole('button', { name: /Create listing 1,200/ })).toBeVisible();
    await page.keyboard.press('Control+Enter');
    const apply = page.getByRole('region', { name: 'Apply progress' });
    await expect(apply).toBeVisible();
    const bar = apply.getByRole('progressbar');
    const seen = new Set<string>();
    await expect(async () => {
      seen.add((await bar.getAttribute('aria-valuenow')) ?? '');
      await expect(apply).toHaveAttribute('data-state', 'done', { timeout: 100 });
    }).toPass({ timeout: 120_000, intervals: [150] });
    expect(seen.size, `progress values seen: ${[...seen].join(', ')}`).toBeGreaterThan(1);
    await expect(bar).toHaveAttribute('aria-valuenow', '1200');
    expect(sandbox.admin.listings().filter((l: { asset_id: string }) => assets.includes(l.asset_id))).toHaveLength(1200);
    const repriced = sandbox.admin.listings().find((l: { asset_id: string }) => l.asset_id === assets[0]);
    expect(repriced?.price).toBe(405);

    // A trade needing action appears.
    const trade = sandbox.admin.addTrade({ trade_type: 'market', role: 'seller', status: 'Action Required' });
    await go(page, 4);
    await expect(async () => {
      await page.getByRole('button', { name: 'Check now' }).click();
      await expect(page.locator(`[data-trade-id="${trade.trade_id}"]`)).toContainText(/Action required/i, { timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    const first = page.locator('article').first();
    await expect(first.locator('.badge').first()).toHaveText(/Action Required|Action required|confirmation_required/);

    // A linked account gets its trade URL, checked as it is typed.
    const linked = sandbox.accounts.linked[0] as string;
    await go(page, 6);
    await page.getByRole('button', { name: 'Read from service' }).click();
    const row = page.getByRole('row').filter({ hasText: linked });
    await row.getByRole('button', { name: /^(Set|Replace)$/ }).click();
    const input = row.getByLabel(`Trade URL for linked account ${linked}`);
    const partner = partnerOf(linked) ?? '';
    await input.fill(`https://steamcommunity.com/tradeoffer/new/?partner=${partner}`);
    await expect(row).toContainText('It needs token=<8 characters>.');
    // Another account's URL (the main one's) is named for what it is, and cannot be saved.
    await input.fill(`https://steamcommunity.com/tradeoffer/new/?partner=${partnerOf(sandbox.accounts.main) ?? ''}&token=e2e_Tok1`);
    await expect(row).toContainText(`is another account’s: this account’s is ${partner}`);
    await expect(row.getByRole('button', { name: 'Save' })).toBeDisabled();
    const url = `https://steamcommunity.com/tradeoffer/new/?partner=${partner}&token=e2e_Tok1`;
    await input.fill(url);
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText(url, { timeout: 90_000 });
    expect(sandbox.admin.tradeUrls().get(linked)).toBe(url);

    // One pending edit, then the app is killed and reopened from the same data.
    await go(page, 2);
    await page.getByLabel('Search listings').fill(assets[5] as string);
    await grid.locator(`[role=row][data-key="${assets[5]}"]`).click();
    await page.keyboard.press('Enter');
    await page.getByLabel('New price').fill('3.33');
    await page.keyboard.press('Enter');
    await expect(grid.locator(`[role=row][data-key="${assets[5]}"] .pending`)).toHaveText('$3.33');
    expect(errors).toEqual([]);

    await page.close();
    await desk.close();
    desk = await startTestDesk({ dataDir, timeScale: 60 });
    const reopened = await browser.newPage();
    await openDesk(reopened, desk.router, server(), 'drafts');
    await expect(reopened.getByRole('button', { name: 'Apply 1 change' })).toBeVisible({ timeout: 20_000 });
    await expect(reopened.getByRole('region', { name: 'Review' })).toContainText('$3.33');
    await reopened.close();
  } finally {
    await desk.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
