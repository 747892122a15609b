import { expect, test, type Page } from '@playwright/test';
import { scalePrice } from '../../src-shared/price-formula.ts';
import { startTestDesk, type TestDesk } from './desk-fixture.ts';
import { goToScreen as go, openDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * Listing from the inventory, as a trader does it: pick twenty items by name
 * ("Strange", "Unusual") from what Steam shows (the simulator's copy of its
 * endpoint), price them with a formula, review them under their names (a
 * search on Listings finds them), apply, and find them listed under the same
 * names. An asset ID typed by hand that the inventory does not hold is
 * flagged before it is drafted; a private inventory says so in a sentence.
 */

let server: StaticServer;
let desk: TestDesk;
test.beforeAll(async () => {
  server = await serveRenderer();
});
test.afterAll(async () => {
  await desk?.close();
  await server.close();
});


async function ok<T>(channel: string, input: unknown): Promise<T> {
  const result = await desk.router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

/** Ticks the first `n` items the grid shows for `text`: the first by a click, the rest by Shift+click. */
async function tick(page: Page, text: string, n: number): Promise<Array<{ key: string; name: string }>> {
  const grid = page.getByRole('grid', { name: 'Inventory' });
  await page.getByLabel('Search inventory').fill(text);
  const rows = grid.locator('[role=row][data-key]');
  // The name shows the item as backpack.tf writes it (an Unusual's says its effect); the quality is in its title.
  for (const i of [0, n - 1]) await expect(rows.nth(i).locator('.item-name')).toHaveAttribute('title', new RegExp(text));
  const picked: Array<{ key: string; name: string }> = [];
  for (let i = 0; i < n; i++) {
    const row = rows.nth(i);
    picked.push({ key: (await row.getAttribute('data-key')) ?? '', name: (await row.locator('.item-name .name').textContent()) ?? '' });
  }
  await rows.nth(0).click();
  await rows.nth(n - 1).click({ modifiers: ['Shift'] });
  return picked;
}

test('pick 20 items by name, price them with a formula, review, apply, and find them listed under the same names', async ({ page }) => {
  test.setTimeout(240_000);
  desk = await startTestDesk({ timeScale: 60, ledgerSize: 400 });
  const { sandbox } = desk;
  const [privateAccount] = sandbox.accounts.linked;
  // One linked account keeps its inventory private on Steam.
  sandbox.faults.set({ inventoryPrivate: { accounts: [privateAccount ?? ''] } });
  await ok('key:set', { key: sandbox.apiKey });
  await expect.poll(async () => (await ok<{ status: string }>('heartbeat:state', {})).status, { timeout: 30_000 }).toBe('active');
  await expect.poll(async () => (await ok<{ linked: unknown[] }>('accounts:list', {})).linked.length, { timeout: 30_000 }).toBe(3);
  const { errors } = await openDesk(page, desk.router, server, 'listings');

  // The picker opens on the inventory and reads it from Steam in the background.
  await page.getByRole('button', { name: 'Create…' }).click();
  const status = page.getByRole('status', { name: 'Inventory reads' });
  await expect(status.locator(`[data-account="${sandbox.accounts.main}"]`)).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  // The private one says why in a sentence, and its inventory shows that sentence, not an empty list.
  const privateLine = status.locator(`[data-account="${privateAccount}"]`);
  await expect(privateLine).toContainText('Steam says this inventory is private', { timeout: 60_000 });
  await page.getByLabel('Inventory of').selectOption(privateAccount ?? '');
  await expect(page.getByRole('grid', { name: 'Inventory' }).locator('.empty')).toHaveText(/^Steam says this inventory is private/);
  await page.getByLabel('Inventory of').selectOption(sandbox.accounts.main);
  await page.getByLabel('Hide listed and drafted').check();

  // From the keyboard: Space ticks, the arrows move without ticking, Shift+arrow ticks a range, Ctrl+A all that match.
  await page.getByRole('grid', { name: 'Inventory' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('1 item ticked of')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('1 item ticked of')).toBeVisible();
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByText('4 items ticked of')).toBeVisible();
  await page.keyboard.press('Control+a');
  await expect(page.getByText(/^([\d,]+) items ticked of \1$/)).toBeVisible();
  await page.getByRole('button', { name: 'Clear', exact: true }).click();

  // Ten Strange items, then ten Unusual ones, by name.
  const picked = [...await tick(page, 'Strange', 10), ...await tick(page, 'Unusual', 10)];
  await expect(page.getByText('20 items ticked of')).toBeVisible();

  // A formula: 95% of what the same item is listed at, up to x.99; $12.00 for items not listed yet.
  await page.getByLabel('Price from').selectOption('listing');
  await page.getByLabel('Percent of the reference price').fill('95');
  await page.getByLabel('Rounding').selectOption('up');
  await page.getByLabel('Round to').selectOption('ninety-nine');
  await page.getByLabel('Price of items without one (empty: leave them out)').fill('12.00');
  await expect(page.getByTestId('inventory-preview')).toContainText('20 items priced');
  await page.getByRole('button', { name: 'Add 20 listings to draft' }).click();
  await expect(page.getByText('20 listings added to the draft.')).toBeVisible();

  // Review: every row named on Listings, found by a search for its name, at the formula's price.
  // The cheapest active listing of each item, as the ledger in the profile's file holds it.
  const cheapest = desk.read((db) => db.prepare("SELECT sku, min(price) AS price FROM listings WHERE state = 'active' GROUP BY sku").all()) as Array<{ sku: string; price: number }>;
  const listed = new Map(cheapest.map((l) => [l.sku, l.price]));
  const grid = page.getByRole('grid', { name: 'Listings' });
  const search = page.getByLabel('Search listings');
  let formulaApplied = 0;
  for (const p of picked) {
    await search.fill(p.name);
    const row = grid.locator(`[role=row][data-key="${p.key}"]`);
    await expect(row.locator('.item-name .name')).toHaveText(p.name);
    const sku = sandbox.admin.inventory().find((a) => a.asset_id === p.key)?.sku ?? '';
    const base = listed.get(sku);
    if (base !== undefined) formulaApplied++;
    const price = base === undefined ? 1_200 : scalePrice(base, 95, 'up', { size: 100, offset: 99 });
    await expect(row).toContainText(`$${(price / 100).toFixed(2)}`);
  }
  await search.fill('');
  test.info().annotations.push({ type: 'formula', description: `${formulaApplied} of 20 priced from a listing of the same item, the rest at $12.00` });

  // Apply from Drafts, where the creates are named too.
  await go(page, 7);
  await expect(page.getByRole('button', { name: /Create listing 20/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Review' })).toContainText(picked[0]?.name ?? '');
  await page.keyboard.press('Control+Enter');
  const apply = page.getByRole('region', { name: 'Apply progress' });
  await expect(apply).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  // Listed on the service, and on Listings under the same names.
  const onService = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l]));
  expect(picked.every((p) => onService.get(p.key)?.state === 'active')).toBe(true);
  await go(page, 2);
  for (const p of picked) {
    await search.fill(p.name);
    const row = grid.locator(`[role=row][data-key="${p.key}"]`);
    await expect(row.locator('.item-name .name')).toHaveText(p.name);
    await expect(row).toContainText('active');
  }
  await search.fill('');

  // An asset ID typed by hand that the inventory does not hold is flagged before it is drafted.
  await page.getByRole('button', { name: 'Create…' }).click();
  // The tabs move with the arrow keys.
  await page.getByRole('tab', { name: 'From inventory' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Asset IDs' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Asset IDs' })).toHaveAttribute('aria-selected', 'true');
  const own = sandbox.admin.inventory()[0]?.asset_id ?? '';
  await page.getByLabel('Asset IDs, one per line').fill(`${own}\n123`);
  const missing = page.getByTestId('typed-missing');
  await expect(missing).toContainText('Not in the inventory of the main account');
  await expect(missing).toContainText('123');
  await expect(missing).not.toContainText(own);
  await expect(missing).toContainText('They can still be added');
  await page.getByLabel('Price for all').fill('3.00');
  await expect(page.getByRole('button', { name: 'Add 2 listings to draft' })).toBeEnabled();

  expect(errors).toEqual([]);
});
