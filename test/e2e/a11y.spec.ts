import { expect, test, type Page } from '@playwright/test';
import { axe, openDesk, serveRenderer, type StaticServer } from './harness.ts';
import { startShowcase, type Showcase } from './showcase.ts';

/**
 * Accessibility, with axe-core on every screen and on the panels and dialogs
 * a trader opens (create, bulk edit, delete all, CSV import, check ledger,
 * discard), in light and dark: prints the violations per screen as a table
 * and fails on any serious or critical one. Then the keyboard: every screen
 * reached and its main controls operated without a mouse, with the focus
 * visible where it lands.
 */

let server: StaticServer;
let show: Showcase;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveRenderer();
  show = await startShowcase();
});
test.afterAll(async () => {
  await show?.close();
  await server?.close();
});

interface Row {
  screen: string;
  theme: string;
  violations: number;
  serious: number;
  rules: string;
}

async function scan(page: Page, screen: string, theme: string, rows: Row[], seriousFound: string[]): Promise<void> {
  await page.waitForTimeout(200);
  const { violations } = await axe(page).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  rows.push({
    screen, theme, violations: violations.length, serious: serious.length,
    rules: violations.map((v) => `${v.id}(${v.impact ?? '?'}×${v.nodes.length})`).join(' '),
  });
  for (const v of serious) {
    for (const node of v.nodes.slice(0, 3)) seriousFound.push(`${theme} ${screen}: ${v.id} — ${v.help} — ${node.target.join(' ')} — ${node.failureSummary?.split('\n').slice(0, 2).join(' ') ?? ''}`);
  }
}

const VIEWS = ['overview', 'listings', 'buy-orders', 'trades', 'history', 'accounts', 'drafts', 'activity', 'settings'] as const;

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on any screen, ${theme}`, async ({ browser }) => {
    test.setTimeout(240_000);
    // axe needs a page of a context made for it.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: theme });
    const page = await context.newPage();
    const { errors } = await openDesk(page, show.desk.router, server);
    const rows: Row[] = [];
    const serious: string[] = [];

    for (const [i, view] of VIEWS.entries()) {
      await page.keyboard.press(`Alt+${i + 1}`);
      await expect(page).toHaveURL(new RegExp(`#/${view}$`));
      if (view === 'listings' || view === 'buy-orders') await expect(page.locator('[role=grid] [role=row][data-key]').first()).toBeVisible();
      await scan(page, view, theme, rows, serious);
    }
    // Pricing, past the nine Alt+digit shortcuts: from the sidebar, with its rule form open.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Pricing' }).click();
    await expect(page.getByRole('table', { name: 'Price sources' })).toBeVisible();
    await page.getByRole('button', { name: 'Add a rule…' }).click();
    await scan(page, 'pricing', theme, rows, serious);

    // The panels and dialogs of the listings screen.
    await page.keyboard.press('Alt+2');
    await page.getByRole('button', { name: 'Create…' }).click();
    await scan(page, 'listings: create', theme, rows, serious);
    // The inventory picker with its items read, some ticked and priced; then typed asset IDs, one flagged.
    const main = show.desk.sandbox.accounts.main;
    await expect(page.getByRole('status', { name: 'Inventory reads' }).locator(`[data-account="${main}"]`)).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
    await page.getByLabel('Search inventory').fill('Unusual');
    const items = page.getByRole('grid', { name: 'Inventory' }).locator('[role=row][data-key]');
    await expect(items.first().locator('.item-name')).toHaveAttribute('title', /Unusual/);
    await items.nth(0).click();
    await items.nth(2).click({ modifiers: ['Shift'] });
    await page.getByLabel('Price from').selectOption('listing');
    await page.getByLabel('Price of items without one (empty: leave them out)').fill('250.00');
    await expect(page.getByTestId('inventory-preview')).toContainText('3 items priced');
    await scan(page, 'listings: inventory picker', theme, rows, serious);
    await page.getByRole('tab', { name: 'Asset IDs' }).click();
    await page.getByLabel('Asset IDs, one per line').fill(`${show.desk.sandbox.admin.inventory()[0]?.asset_id ?? ''}\n123`);
    await expect(page.getByTestId('typed-missing')).toContainText('123');
    await scan(page, 'listings: asset IDs', theme, rows, serious);
    await page.getByRole('tab', { name: 'From inventory' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Import CSV…' }).click();
    await scan(page, 'listings: CSV import', theme, rows, serious);
    // A chosen file checked through the real router, sent in parts as any file is: the rows ready and the lines refused.
    const asset = show.desk.sandbox.admin.inventory()[0]?.asset_id ?? '';
    await page.getByLabel('CSV file').setInputFiles({ name: 'listings.csv', mimeType: 'text/csv', buffer: Buffer.from(`asset_id,price\n${asset},4.50\n${asset},not a price\n`) });
    await page.getByRole('region', { name: 'Import CSV' }).getByRole('button', { name: 'Check', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Refused lines' })).toContainText('line 3');
    await scan(page, 'listings: CSV import checked', theme, rows, serious);
    await page.keyboard.press('Escape');
    await page.getByRole('grid', { name: 'Listings' }).focus();
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    await page.getByLabel('Operation').selectOption('multiply');
    await page.getByLabel('Percent').fill('95');
    await expect(page.getByTestId('bulk-preview')).toContainText('→');
    await scan(page, 'listings: bulk edit', theme, rows, serious);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Delete all…' }).click();
    await expect(page.getByTestId('delete-all-impact')).toBeVisible();
    await scan(page, 'listings: delete all', theme, rows, serious);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Check ledger' }).click();
    await expect(page.getByRole('region', { name: 'Check ledger' })).toContainText('in doubt', { timeout: 90_000 });
    await scan(page, 'listings: check ledger', theme, rows, serious);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+3');
    await page.getByRole('button', { name: 'Create…' }).click();
    await scan(page, 'buy orders: create', theme, rows, serious);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+7');
    await page.getByRole('button', { name: 'Discard' }).click();
    await scan(page, 'drafts: discard', theme, rows, serious);
    await page.keyboard.press('Escape');

    console.log(`\naxe, ${theme} theme: violations per screen (serious and critical fail the test)`);
    console.table(rows.map((r) => ({ screen: r.screen, violations: r.violations, 'serious+critical': r.serious, rules: r.rules })));
    expect(serious).toEqual([]);
    // The picker and the typed IDs: not a single violation of any impact.
    expect(rows.filter((r) => r.screen === 'listings: inventory picker' || r.screen === 'listings: asset IDs').map((r) => [r.screen, r.violations, r.rules]))
      .toEqual([['listings: inventory picker', 0, ''], ['listings: asset IDs', 0, '']]);
    expect(errors).toEqual([]);
    await context.close();
  });
}

/** What has the focus: its tag and name, and whether a focus ring is drawn around it. */
async function focused(page: Page): Promise<{ tag: string; name: string; ring: boolean }> {
  const el = page.locator('*:focus');
  if ((await el.count()) === 0) return { tag: '', name: '', ring: false };
  return el.first().evaluate((e) => {
    const style = e.ownerDocument.defaultView?.getComputedStyle(e);
    const ring = style !== undefined && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none');
    return { tag: e.tagName.toLowerCase(), name: (e.getAttribute('aria-label') ?? e.textContent ?? '').trim().slice(0, 40), ring };
  });
}

test('the desk works from the keyboard alone, with the focus always visible', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const { errors } = await openDesk(page, show.desk.router, server);

  // Tab reaches the sidebar's screens, each with a visible focus ring, and Enter opens one.
  let reachedListings = false;
  for (let i = 0; i < 12 && !reachedListings; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    expect(f.ring, `focus ring on ${f.tag} "${f.name}"`).toBe(true);
    reachedListings = f.name.startsWith('Listings');
  }
  expect(reachedListings).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/listings$/);

  // The table: a grid with column headers, sortable from the keyboard, rows selected with arrows and Space.
  const grid = page.getByRole('grid', { name: 'Listings' });
  await expect(grid.getByRole('columnheader')).toHaveCount(9);
  // The Price header holds two sorts: by the price, and (the next Tab stop) by the price after the draft.
  const priceHeader = grid.getByRole('columnheader', { name: /Price/ });
  const byPrice = priceHeader.getByRole('button', { name: 'Price', exact: true });
  await byPrice.focus();
  expect((await focused(page)).ring).toBe(true);
  await page.keyboard.press('Tab');
  await expect(priceHeader.getByRole('button', { name: 'Sort by the price after the draft' })).toBeFocused();
  expect((await focused(page)).ring).toBe(true);
  await page.keyboard.press('Shift+Tab');
  await expect(byPrice).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  await grid.focus();
  expect((await focused(page)).ring).toBe(true);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByTestId('table-counts')).toContainText('2 selected');

  // A panel opens on its first field, takes typing, and Escape gives the focus back.
  const create = page.getByRole('button', { name: 'Create…' });
  await create.focus();
  await page.keyboard.press('Enter');
  // The inventory's search: typing goes straight into it.
  expect((await focused(page)).tag).toBe('input');
  await page.keyboard.press('Escape');
  await expect(create).toBeFocused();

  // Trades: the tabs move with the arrow keys.
  await page.keyboard.press('Alt+4');
  await page.getByRole('tab', { name: /Market/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Buy orders/ })).toHaveAttribute('aria-selected', 'true');

  // Drafts: the unknown outcome's choices and the review are reachable; a dialog keeps the focus inside.
  await page.keyboard.press('Alt+7');
  const drop = page.getByRole('region', { name: 'Unknown outcomes' }).getByRole('button', { name: 'Drop' }).first();
  await drop.focus();
  expect((await focused(page)).ring).toBe(true);
  await page.getByRole('button', { name: 'Discard' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  expect(errors).toEqual([]);
  await page.close();
});
