import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatCents } from '../../src-shared/money.ts';
import { axe, openDesk, serveRenderer, type StaticServer } from './harness.ts';
import { startShowcase, type Showcase } from './showcase.ts';

/**
 * Every screen at 1024×700 (the smallest window), 1280×800 and 1920×1080, light and dark, on a desk with
 * names on screen (a named ledger, buy orders, a draft of a thousand changes
 * with a refused one and a lost answer, trades waiting), kept as artifacts
 * under test-results/screenshots for people to look at. The layout faults a
 * trader reported are checked on each (softly, so one run names them all):
 * a cut marker, a clipped price, a cut button, a header that wraps, a cut
 * time, a sidebar hint pushed out, columns cut off with no way to reach
 * them, an inline error over the next row, a name over the asset ID.
 * History is also pictured by test/e2e/history.spec.ts, after checking its figures.
 * `UPDATE_README_SCREENSHOTS=1` also refreshes the few pictures the README
 * shows (build/screenshots).
 */

const DIR = join('test-results', 'screenshots');
const README_PICTURES = ['listings-dark', 'buy-orders-light', 'drafts-light', 'trades-dark', 'history-light', 'history-dark'];
const VIEWS = ['overview', 'listings', 'buy-orders', 'trades', 'history', 'accounts', 'drafts', 'activity', 'settings'] as const;
const SIZES = [{ width: 1024, height: 700 }, { width: 1280, height: 800 }, { width: 1920, height: 1080 }] as const;

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

/**
 * Texts an element cuts (ellipsis or overflow): each named by what it shows.
 * scrollWidth and clientWidth are whole pixels, so a text a fraction of a
 * pixel too wide (cut, with its ellipsis) passes them; its drawn width,
 * measured over its contents, does not.
 */
async function clipped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.filter((el) => {
      if (el.scrollWidth > el.clientWidth + 1) return true;
      const style = el.ownerDocument.defaultView?.getComputedStyle(el);
      if (style === undefined || style.overflowX === 'visible') return false;
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return range.getBoundingClientRect().width > room + 0.1;
    }).map((el) => (el.textContent ?? '').trim().slice(0, 60)));
}

/** Whether two elements' boxes overlap (both drawn). */
async function overlap(page: Page, a: string, b: string): Promise<boolean> {
  const [ra, rb] = await Promise.all([page.locator(a).first().boundingBox(), page.locator(b).first().boundingBox()]);
  if (!ra || !rb) return false;
  return ra.x < rb.x + rb.width && rb.x < ra.x + ra.width && ra.y < rb.y + rb.height && rb.y < ra.y + ra.height;
}

/** Whether `inner` lies wholly inside its enclosing `outer`, horizontally (a marker cut by its cell does not). */
async function inside(page: Page, inner: string, outer: string): Promise<boolean> {
  return page.locator(inner).first().evaluate((el, o) => {
    const a = el.getBoundingClientRect();
    const b = el.closest(o)?.getBoundingClientRect();
    return b !== undefined && a.width > 0 && a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
  }, outer);
}

async function picture(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(DIR, `${name}.png`) });
}

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`every screen at ${size.width}×${size.height}, ${scheme}`, async ({ browser }) => {
      test.setTimeout(180_000);
      mkdirSync(DIR, { recursive: true });
      const tag = `${size.width}-${scheme}`;
      const page = await browser.newPage({ viewport: size, colorScheme: scheme });
      const { errors } = await openDesk(page, show.desk.router, server);

      for (const [i, view] of VIEWS.entries()) {
        await page.keyboard.press(`Alt+${i + 1}`);
        await expect(page).toHaveURL(new RegExp(`#/${view}$`));
        await expect(page.locator('main h1')).toBeVisible();
        if (view === 'listings' || view === 'buy-orders') await expect(page.locator('[role=grid] [role=row][data-key]').first()).toBeVisible();
        if (view === 'trades') await expect(page.locator('article').first()).toBeVisible();
        if (view === 'history') await expect(page.getByTestId('flow-caption')).toContainText('Trades on');
        if (view === 'drafts') await expect(page.getByRole('region', { name: 'Unknown outcomes' })).toBeVisible();
        await picture(page, `${view}-${tag}`);
        if (size.width === 1280 && README_PICTURES.includes(`${view}-${scheme}`) && process.env.UPDATE_README_SCREENSHOTS === '1') {
          copyFileSync(join(DIR, `${view}-${tag}.png`), join('build', 'screenshots', `${view}-${scheme}.png`));
        }
      }

      // The sidebar: a Drafts count of 1,000 and more leaves every shortcut hint inside it.
      const hints = await page.locator('nav[aria-label=Screens] .key').evaluateAll((els) => els.map((el) => {
        const nav = el.closest('nav')?.getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return { right: Math.round(r.right), inside: nav !== undefined && r.right <= nav.right - 4 };
      }));
      expect.soft(hints.every((h) => h.inside)).toBe(true);
      // Every hint lines up with the others, whatever count stands beside it.
      expect.soft(new Set(hints.map((h) => h.right)).size).toBe(1);
      expect.soft(await clipped(page, 'nav[aria-label=Screens] .label')).toEqual([]);

      // Listings: names on screen, the refused create's marker whole, both prices of a large reprice whole.
      await page.keyboard.press('Alt+2');
      const grid = page.getByRole('grid', { name: 'Listings' });
      await expect(grid.locator('[role=row][data-key] .item-name .name').first()).not.toBeEmpty();
      for (const asset of [show.refusedAsset, show.refusedDeleteAsset]) {
        await page.getByLabel('Search listings').fill(asset);
        const row = grid.locator(`[role=row][data-key="${asset}"]`);
        await expect(row.locator('.problem')).toBeVisible();
        expect.soft(await inside(page, `[data-key="${asset}"] .problem`, '[role=gridcell]'), `the "!" of ${asset} shows whole`).toBe(true);
        expect.soft(await clipped(page, `[data-key="${asset}"] .mark`)).toEqual([]);
      }
      await page.getByLabel('Search listings').fill(show.bigPriceAsset);
      const big = grid.locator(`[role=row][data-key="${show.bigPriceAsset}"]`);
      await expect(big).toContainText('$765.25');
      await expect(big).toContainText('$7,888.73');
      // Both prices inside the cell: a flex row aligned right cuts the old one on the left, which scrollWidth does not see.
      expect.soft(await inside(page, `[data-key="${show.bigPriceAsset}"] .money > :first-child`, '[role=gridcell]'), 'the old price shows whole').toBe(true);
      expect.soft(await inside(page, `[data-key="${show.bigPriceAsset}"] .money > :last-child`, '[role=gridcell]'), 'the new price shows whole').toBe(true);
      expect.soft(await clipped(page, `[data-key="${show.bigPriceAsset}"] .money > *`)).toEqual([]);
      await page.getByLabel('Search listings').fill('');
      expect.soft(await clipped(page, '.view-head')).toEqual([]);

      // Every column can be reached: a table narrower than its columns scrolls sideways, with a scrollbar in view.
      const scroller = grid.locator('.vt-scroller');
      const room = await scroller.evaluate((el) => ({ wide: el.scrollWidth > el.clientWidth + 1, bar: el.offsetHeight - el.clientHeight }));
      if (room.wide) {
        expect.soft(room.bar, 'a horizontal scrollbar shows').toBeGreaterThan(0);
        await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
        await picture(page, `listings-scrolled-${tag}`);
      }
      for (const name of ['Account', 'State']) {
        expect.soft(await inside(page, `[role=grid][aria-label=Listings] [role=columnheader]:has-text("${name}")`, '.vt'), `the ${name} column can be seen whole`).toBe(true);
      }
      await scroller.evaluate((el) => el.scrollTo({ left: 0 }));

      // An inline price the desk refuses says why without covering the next row's price.
      const rows = grid.locator('[role=row][data-key]');
      await rows.nth(0).locator('.money').dblclick();
      await page.getByLabel('New price').fill('abc');
      await page.getByLabel('New price').press('Enter');
      await expect(page.getByText('Not a price: type it like 12.34.')).toBeVisible();
      const nextPrice = `[role=grid][aria-label=Listings] [role=row][data-key="${await rows.nth(1).getAttribute('data-key')}"] .money`;
      expect.soft(await overlap(page, '.help.error', nextPrice), 'the error covers the next row’s price').toBe(false);
      await picture(page, `listings-inline-error-${tag}`);
      await page.getByLabel('New price').press('Escape');

      // The panels and dialogs, as a trader meets them; Escape closes each.
      await page.getByRole('button', { name: 'Create…' }).click();
      await picture(page, `listings-create-${tag}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('region', { name: 'Create listings' })).toHaveCount(0);
      await page.getByRole('button', { name: 'Import CSV…' }).click();
      await picture(page, `listings-csv-${tag}`);
      // A chosen file as European Excel saves it, checked: how it was read, the rows ready, the lines refused and why.
      const asset = show.desk.sandbox.admin.inventory()[0]?.asset_id ?? '';
      const european = `\uFEFFasset_id;price\r\n${asset};4,50\r\n${asset};not a price\r\n`;
      await page.getByLabel('CSV file').setInputFiles({ name: 'listings.csv', mimeType: 'text/csv', buffer: Buffer.from(european) });
      await page.getByRole('region', { name: 'Import CSV' }).getByRole('button', { name: 'Check', exact: true }).click();
      await expect(page.getByRole('list', { name: 'Refused lines' })).toContainText('line 3');
      await expect(page.getByTestId('csv-read-as')).toHaveText('Read as semicolon-separated (detected), decimal comma “1,50” (from the prices), with a byte order mark, Windows line ends (CRLF).');
      expect.soft(await clipped(page, '[data-testid=csv-read-as]')).toEqual([]);
      await picture(page, `listings-csv-checked-${tag}`);
      await page.keyboard.press('Escape');
      await grid.focus();
      await page.keyboard.press('Control+a');
      await page.getByRole('button', { name: 'Bulk edit…' }).click();
      await page.getByLabel('Operation').selectOption('multiply');
      await page.getByLabel('Percent').fill('95');
      await expect(page.getByTestId('bulk-preview')).toContainText('→');
      await picture(page, `listings-bulk-${tag}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete all…' }).click();
      await expect(page.getByTestId('delete-all-impact')).toBeVisible();
      await picture(page, `listings-delete-all-${tag}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);
      await page.getByRole('button', { name: 'Check ledger' }).click();
      await expect(page.getByRole('region', { name: 'Check ledger' })).toContainText('in doubt', { timeout: 90_000 });
      await picture(page, `listings-check-${tag}`);
      await page.keyboard.press('Escape');

      // Buy orders: the header stays on one line where it fits, and nothing in it covers anything else.
      await page.keyboard.press('Alt+3');
      const head = page.locator('main .view-head').first();
      if (size.width >= 1280) expect.soft((await head.boundingBox())?.height ?? 0).toBeLessThan(40);
      const crossing = await head.evaluate((el) => {
        // Every piece of text in it (the innermost elements), as drawn: a box may shrink while its words spill over.
        const leaves = [...el.querySelectorAll('*')].filter((c) => c.children.length === 0 && (c.textContent ?? '').trim() !== '');
        const boxes = leaves.map((c) => {
          const range = el.ownerDocument.createRange();
          range.selectNodeContents(c);
          const words = range.getBoundingClientRect();
          // Text an element cuts (an ellipsis) is drawn only inside it.
          const own = (el.ownerDocument.defaultView?.getComputedStyle(c).overflowX ?? 'visible') === 'visible' ? words : c.getBoundingClientRect();
          const r = { left: Math.max(words.left, own.left), right: Math.min(words.right, own.right), top: words.top, bottom: words.bottom };
          return { text: (c.textContent ?? '').trim().slice(0, 30), r };
        });
        return boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) =>
          a.r.left < b.r.right - 0.5 && b.r.left < a.r.right - 0.5 && a.r.top < b.r.bottom - 0.5 && b.r.top < a.r.bottom - 0.5).map((b) => `${a.text} / ${b.text}`));
      });
      expect.soft(crossing, 'parts of the header drawn over each other').toEqual([]);
      if (size.width === 1280) {
        // Where the trader saw it wrap.
        await page.setViewportSize({ width: 1360, height: 800 });
        expect.soft((await head.boundingBox())?.height ?? 0).toBeLessThan(40);
        await page.setViewportSize(size);
      }
      await page.getByRole('button', { name: 'Create…' }).click();
      await picture(page, `buy-orders-create-${tag}`);
      await page.keyboard.press('Escape');

      // Drafts: every choice of a lost answer readable in full; the discard dialog; the sidebar's current (bold) label whole.
      await page.keyboard.press('Alt+7');
      expect.soft(await clipped(page, 'nav[aria-label=Screens] .label')).toEqual([]);
      const lost = page.getByRole('region', { name: 'Unknown outcomes' });
      expect.soft(await clipped(page, '[aria-label="Unknown outcomes"] button')).toEqual([]);
      await expect(lost.getByRole('button', { name: 'Drop' }).first()).toBeVisible();
      // The review: a name, or words in its place, never run over the asset ID beside it.
      const review = page.getByRole('grid', { name: 'Draft changes' });
      await review.scrollIntoViewIfNeeded();
      await expect(review.locator('[role=row][data-key]').first()).toBeVisible();
      const overrun = await review.locator('[role=row][data-key] .target').evaluateAll((cells) => cells.filter((c) => {
        const name = c.querySelector('.item-name')?.lastElementChild?.getBoundingClientRect();
        const id = c.querySelector('.id')?.getBoundingClientRect();
        // In the smallest window the ID is left to the row's details (not drawn: no box).
        return name !== undefined && id !== undefined && id.width > 0 && name.right > id.left + 0.5;
      }).map((c) => (c.textContent ?? '').trim().slice(0, 60)));
      expect.soft(overrun, 'names running over the asset ID').toEqual([]);
      // Every column in view at once, down to the smallest window, with the kinds and statuses whole.
      const sideways = await review.locator('.vt-scroller').evaluate((el) => el.scrollWidth - el.clientWidth);
      expect.soft(sideways, 'the review scrolls sideways').toBeLessThanOrEqual(1);
      expect.soft(await clipped(page, '[role=grid][aria-label="Draft changes"] [role=row][data-key] [role=gridcell]:first-child')).toEqual([]);
      // A refusal's reason may be cut: the row's details below give it whole.
      const statuses = await clipped(page, '[role=grid][aria-label="Draft changes"] [role=row][data-key] [role=gridcell]:last-child');
      expect.soft(statuses.filter((text) => !text.startsWith('refused:'))).toEqual([]);
      await picture(page, `drafts-review-${tag}`);
      // A row chosen: its details give whole what the table cuts, the asset ID with it.
      const first = review.locator('[role=row][data-key]').first();
      const cut = (await first.locator('.fields').textContent()) ?? '';
      await first.click();
      const details = page.getByTestId('review-focused');
      await expect(details.locator('.fields')).toHaveText(cut);
      expect.soft(await clipped(page, '[data-testid=review-focused] .fields')).toEqual([]);
      expect.soft(await inside(page, '[data-testid=review-focused] .fields > :last-child', '[data-testid=review-focused]'), 'the change shows whole').toBe(true);
      await expect(details.locator(':scope > .mono')).toHaveText(/^\d+$/);
      await details.scrollIntoViewIfNeeded();
      await picture(page, `drafts-review-row-${tag}`);
      await page.getByRole('button', { name: 'Discard' }).click();
      await picture(page, `drafts-discard-${tag}`);
      await page.keyboard.press('Escape');

      // Activity: the time of each entry whole.
      await page.keyboard.press('Alt+8');
      await expect(page.locator('[role=grid] [role=row][data-key]').first()).toBeVisible();
      expect.soft(await clipped(page, '[role=grid][aria-label="Activity log"] [role=row][data-key] [role=gridcell]:first-child')).toEqual([]);

      expect(errors).toEqual([]);
      await page.close();
    });
  }
}

/** The inventory picker, as a trader uses it: items ticked by name, a formula priced, and typed IDs flagged. */
const PICKER_SIZES = [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }] as const;

for (const size of PICKER_SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`the inventory picker at ${size.width}×${size.height}, ${scheme}`, async ({ browser }) => {
      test.setTimeout(120_000);
      mkdirSync(DIR, { recursive: true });
      const tag = `${size.width}-${scheme}`;
      const page = await browser.newPage({ viewport: size, colorScheme: scheme });
      const { errors } = await openDesk(page, show.desk.router, server, 'listings');
      await page.getByRole('button', { name: 'Create…' }).click();
      const status = page.getByRole('status', { name: 'Inventory reads' });
      await expect(status.locator(`[data-account="${show.desk.sandbox.accounts.main}"]`)).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });

      // Ten Strange items ticked, priced at 95% of their listed price, up to x.99, $12.00 for the rest.
      await page.getByLabel('Hide listed and drafted').check();
      await page.getByLabel('Search inventory').fill('Strange');
      const rows = page.getByRole('grid', { name: 'Inventory' }).locator('[role=row][data-key]');
      await expect(rows.first().locator('.item-name')).toHaveAttribute('title', /Strange/);
      await rows.nth(0).click();
      await rows.nth(4).click({ modifiers: ['Shift'] });
      await page.getByLabel('Price from').selectOption('listing');
      await page.getByLabel('Rounding').selectOption('up');
      await page.getByLabel('Round to').selectOption('ninety-nine');
      await page.getByLabel('Price of items without one (empty: leave them out)').fill('12.00');
      await expect(page.getByTestId('inventory-preview')).toContainText('5 items priced');
      await picture(page, `picker-${tag}`);

      // Nothing of the picker is cut: its filters, its status lines, its buttons; the Add button is on screen.
      expect.soft(await clipped(page, '.picker .filters label, .picker .selection, .inv-status li, .pricing button')).toEqual([]);
      const add = await page.getByTestId('inventory-add').boundingBox();
      expect.soft(add !== null && add.y + add.height <= size.height && add.x + add.width <= size.width, 'the Add button is on screen').toBe(true);
      // At least a few rows of items stay in view.
      expect.soft(await rows.count()).toBeGreaterThanOrEqual(5);

      // Asset IDs typed by hand: one the inventory does not hold is flagged before it is drafted.
      await page.getByRole('tab', { name: 'Asset IDs' }).click();
      const own = show.desk.sandbox.admin.inventory()[0]?.asset_id ?? '';
      await page.getByLabel('Asset IDs, one per line').fill(`${own}\n123\n456`);
      await page.getByLabel('Price for all').fill('3.00');
      await expect(page.getByTestId('typed-missing')).toContainText('123');
      await picture(page, `picker-asset-ids-${tag}`);
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
      await page.close();
    });
  }
}

/**
 * The review's prices and the guard's marks whole in the smallest window, light and dark: a deep cut of the
 * dearest listing and a new listing priced 80 % under its item's lowest listing, each drawn whole in its
 * cell with its ⚠ in view, as the trader reads them before the guard's question.
 */
for (const scheme of ['light', 'dark'] as const) {
  test(`the review's prices and marks at 1024×700, ${scheme}`, async ({ browser }) => {
    test.setTimeout(120_000);
    mkdirSync(DIR, { recursive: true });
    const size = { width: 1024, height: 700 };
    const { desk } = show;
    const before = (await desk.ask('drafts:list')).currentId;
    // The simulator's listings on the market (the ledger holds them, adopted when the profile was seeded).
    const ledger = desk.sandbox.admin.listings().filter((l) => l.state === 'active').map((l) => ({ key: l.asset_id, sku: l.sku, price: l.price }));
    expect(ledger.length, 'listings on the market').toBeGreaterThan(0);
    const dearest = ledger.reduce((a, b) => (b.price > a.price ? b : a));
    const skus = new Map(ledger.map((r) => [r.sku, r.price]));
    const drafted = new Set(ledger.map((r) => r.key));
    const spare = desk.sandbox.admin.inventory().slice(700).find((a) => skus.has(a.sku) && !drafted.has(a.asset_id));
    if (!spare) throw new Error('no inventory item of a listed SKU');
    const lowest = Math.min(...ledger.filter((r) => r.sku === spare.sku).map((r) => r.price));
    const draft = await desk.ask('drafts:create', { name: `Price marks ${scheme}` });
    await desk.ask('drafts:select', { draftId: draft.id });
    await desk.ask('drafts:addChanges', {
      changes: [
        { kind: 'listing.edit', asset_id: dearest.key, price: Math.round(dearest.price / 2) },
        { kind: 'listing.create', asset_id: spare.asset_id, sku: spare.sku, price: Math.max(1, Math.round(lowest / 5)), promoted: 0, game: '440' },
      ],
    });
    // axe needs a page of a context made for it.
    const context = await browser.newContext({ viewport: size, colorScheme: scheme });
    const page = await context.newPage();
    try {
      const { errors } = await openDesk(page, desk.router, server, 'drafts');
      const review = page.getByRole('grid', { name: 'Draft changes' });
      await expect(review.locator('[role=row][data-key]')).toHaveCount(2);
      await expect(review.locator('.concern')).toHaveCount(2);
      await picture(page, `drafts-marks-${size.width}-${scheme}`);
      // Each price change and its mark drawn inside its cell, and nothing of them cut.
      const cut = await review.locator('[role=row][data-key] .fd[data-field=price], [role=row][data-key] .concern').evaluateAll((els) => els.filter((el) => {
        const a = el.getBoundingClientRect();
        const cell = el.closest('[role=gridcell]')?.getBoundingClientRect();
        return cell === undefined || a.width === 0 || a.left < cell.left - 0.5 || a.right > cell.right + 0.5;
      }).map((el) => (el.textContent ?? '').trim()));
      expect.soft(cut, 'prices or marks cut by their cell').toEqual([]);
      expect.soft(await clipped(page, '[role=grid][aria-label="Draft changes"] [role=row][data-key] .fd[data-field=price]')).toEqual([]);
      // As drawn (innerText): the old price, the new one and the mark, all of them.
      const drawn = (await review.locator('[role=row][data-key] .fd[data-field=price]').filter({ hasText: '→' }).innerText()).replace(/\s+/g, '');
      expect.soft(drawn).toBe(`${formatCents(dearest.price)}→${formatCents(Math.round(dearest.price / 2))}⚠`);
      // The marks are named for a screen reader, and axe finds nothing on the screen.
      await expect(review.locator('.concern').first()).toHaveAttribute('aria-label', /^Far under the item's (lowest listing|last sale) \(\$[\d,.]+\)$/);
      const { violations } = await axe(page).analyze();
      expect.soft(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await desk.ask('drafts:discard', { draftId: draft.id });
      if (before) await desk.ask('drafts:select', { draftId: before });
    }
  });
}
