import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { keyIn, startTestDesk, type TestDesk } from './desk-fixture.ts';
import { openDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * A buy order made by typing a name, as a trader does: the field offers the
 * names as they are typed (keyboard only here), says the SKU the name
 * resolves to and asks which item a shared name means; the order applies
 * against the simulator under that SKU. Then the Buy orders ledger is saved
 * with Export CSV and holds it, by name.
 */

let server: StaticServer;
let desk: TestDesk;
test.beforeAll(async () => {
  server = await serveRenderer();
  desk = await startTestDesk({ timeScale: 60 });
  await keyIn(desk);
});
test.afterAll(async () => {
  await desk?.close();
  await server?.close();
});

test('"Mann Co. Supply Crate Key" resolves to 5021;6, and the buy order applies and exports by name', async ({ page }) => {
  test.setTimeout(120_000);
  const { errors } = await openDesk(page, desk.router, server, 'buy-orders');
  await page.getByRole('button', { name: 'Create…' }).click();
  const field = page.getByRole('combobox', { name: 'Item (name or SKU)' });
  await expect(field).toBeFocused();

  // A name several items bear asks which one.
  await field.pressSequentially('Mann Co. Supply Crate');
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('item-resolution')).toContainText('which one?');
  await expect(page.getByRole('radio', { name: /5022;6/ })).toBeVisible();

  // The key, chosen from the list with the arrows and Enter.
  await field.pressSequentially(' Ke');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('Mann Co. Supply Crate Key');
  await expect(options.first()).toContainText('5021;6');
  await field.press('ArrowDown');
  await expect(field).toHaveAttribute('aria-activedescendant', /opt-0$/);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await field.press('Enter');
  await expect(field).toHaveValue('Mann Co. Supply Crate Key');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(page.getByTestId('item-resolution')).toHaveText('Resolves to 5021;6 (Mann Co. Supply Crate Key)');

  // Escape closes the list first, the panel only on a second press.
  await field.pressSequentially('x');
  await field.press('Backspace');
  await expect(options.first()).toBeVisible();
  await field.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(field).toBeVisible();

  await page.getByLabel('Price per unit').fill('62.50');
  await page.getByLabel('Quantity').fill('3');
  await page.getByRole('button', { name: 'Add to draft' }).click();
  await expect(page.getByText('Buy order for 5021;6 added to the draft.')).toBeVisible();

  await page.keyboard.press('Alt+7');
  await expect(page.getByRole('button', { name: 'Apply 1 change' })).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(desk.sandbox.admin.buyOrders().filter((o) => o.sku === '5021;6').map((o) => [o.price, o.quantity])).toEqual([[6_250, 3]]);

  // Export CSV of the ledger holds it under its name, in the import's format.
  await page.keyboard.press('Alt+3');
  await expect(page.locator('[role=grid] [role=row][data-key="5021;6"]')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  // Exports start with a byte order mark, so Excel reads them as UTF-8.
  expect(csv.startsWith('\uFEFF')).toBe(true);
  expect(csv.slice(1).split(/\r?\n/)[0]).toBe('sku,name,account,price,quantity,active,user_note');
  expect(csv).toContain(`5021;6,Mann Co. Supply Crate Key,${desk.sandbox.accounts.main},62.50,3,1,`);
  expect(errors).toEqual([]);
});
