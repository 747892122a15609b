import { expect, test, type Page } from '@playwright/test';
import { createItemNames } from '../../src-main/core/items/item-names.ts';
import { adopt, startTestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, screenshotsIn } from './harness.ts';

/**
 * The keyboard journey that once cut 29 listings by 95 % without a question:
 * Listings, `/`, "Strange", select all that match, Bulk edit, "Multiply
 * price by %" (chosen: the panel opens with none), 5, Enter, Drafts (Alt+7),
 * Ctrl+Enter. Now the apply stops at a question that names the 29 listings
 * and the cut, which neither a stray Ctrl+Enter nor Enter answers, and
 * nothing reaches the service until the trader ticks that they mean it.
 * Applied, "Undo this apply" brings the 29 back to $3.00: the guard asks
 * about those rises too, and is answered. All from the keyboard, in Chromium
 * at 1024×700, against the simulator; pictures go to test-results/guard-journey
 * (guard-journey-server/ for the server project).
 */

const STRANGE = 29;
const OTHERS = 21;
const names = createItemNames();
/** Whether a search for "Strange" finds the item, as the desk's name search does. */
const strange = (sku: string) => names.searchName(sku).includes('strange') || sku.toLowerCase().includes('strange');

const server = rendererForSpecs();

const shot = screenshotsIn('guard-journey', { fullPage: false });

/** The focused element's name, as a screen reader would say it (its label, else its text). */
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null; textContent: string | null } | null } }).document.activeElement;
    return (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim();
  });

/** Presses Tab (or Shift+Tab) until the control named `name` has the focus, as a keyboard user looks for it. */
async function tabTo(page: Page, name: string, backwards = false): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if ((await focusedName(page)) === name) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`40 presses of ${backwards ? 'Shift+Tab' : 'Tab'} did not reach "${name}"`);
}

test('a 95 % cut of 29 listings from the keyboard asks first, sends nothing until confirmed, and is undone to $3.00', async ({ browser }) => {
  test.setTimeout(240_000);
  // 29 Strange items listed at $3.00 and 21 others at $5.00. No buyers: every one of the 29 stays on the market.
  let seeded: string[] = [];
  const desk = await startTestDesk({
    timeScale: 60,
    tradeSchedule: false,
    seed: ({ repos, sandbox }) => {
      const cheap = sandbox.admin.seedListingsOf(STRANGE, (a) => strange(a.sku), 300);
      const others = sandbox.admin.seedListingsOf(OTHERS, (a) => !strange(a.sku), 500);
      adopt(repos, sandbox, [...cheap, ...others]);
      seeded = cheap.map((l) => l.asset_id);
    },
  });
  const { sandbox } = desk;
  const prices = () => new Map(sandbox.admin.listings().filter((l) => seeded.includes(l.asset_id)).map((l) => [l.asset_id, l.price]));
  const edits = () => sandbox.log.requests.filter((r) => r.endpoint === 'edit_listing');
  try {
    await desk.ask('key:set', { key: sandbox.apiKey });
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 30_000 }).toBe(true);
    const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
    const { errors } = await openDesk(page, desk.router, server());

    // Listings, `/`, "Strange": the 29.
    await page.keyboard.press('Alt+2');
    const grid = page.getByRole('grid', { name: 'Listings' });
    await expect(grid.locator('[role=row][data-key]').first()).toBeVisible();
    await page.keyboard.press('/');
    const search = page.getByLabel('Search listings');
    await expect(search).toBeFocused();
    await page.keyboard.type('Strange');
    const counts = page.getByTestId('table-counts');
    await expect(counts).toContainText(`${STRANGE} of ${STRANGE + OTHERS}`);
    // Out of the search box (there Ctrl+A selects its text), then Ctrl+A: every listing that matches.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+a');
    await expect(counts).toContainText(`${STRANGE} selected`);
    await shot(page, '1-listings-strange-selected');

    // Bulk edit, from the keyboard: the panel opens with no operation chosen, and the trader chooses one.
    await tabTo(page, 'Bulk edit…', true);
    await page.keyboard.press('Enter');
    const bulk = page.getByRole('form', { name: /Bulk edit/ });
    const operation = bulk.getByLabel('Operation');
    await expect(operation).toBeFocused();
    await expect(operation).toHaveValue('');
    await expect(bulk).toContainText('Choose an operation.');
    await expect(bulk.getByRole('button', { name: 'Add to draft' })).toBeDisabled();
    await page.keyboard.type('M');
    await expect(operation).toHaveValue('multiply');
    await page.keyboard.press('Tab');
    await expect(bulk.getByLabel('Percent')).toBeFocused();
    await page.keyboard.type('5');
    // The preview already says what the guard will ask.
    await expect(bulk.getByRole('note')).toContainText(`${STRANGE} listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15). Applying it will ask you to confirm.`);
    await shot(page, '2-bulk-multiply-5');
    await page.keyboard.press('Enter');
    await expect(page.getByText(`${STRANGE} listings changed in the draft.`)).toBeVisible();

    // Drafts (Alt+7), Ctrl+Enter: a question naming the 29 and the cut, not an apply.
    await page.keyboard.press('Alt+7');
    const applyButton = page.getByRole('button', { name: `Apply ${STRANGE} changes` });
    await expect(applyButton).toBeEnabled();
    await page.keyboard.press('Control+Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Apply these price changes?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${STRANGE} listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15).`);
    const confirm = dialog.getByRole('button', { name: 'Apply these prices' });
    await expect(confirm).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await shot(page, '3-guard-asks');
    // Tab goes round the dialog's own controls (the confirm button, off, is passed over), never behind it.
    const inDialog = () => dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement));
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await inDialog(), `focus after ${i + 1} Tab`).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Cancel' }).focus();

    // A stray Ctrl+Enter answers nothing; a stray Enter lands on Cancel. Nothing was sent.
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeVisible();
    await expect(confirm).toBeDisabled();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await page.waitForTimeout(1_000);
    expect(edits(), 'edit_listing requests before the trader confirmed').toEqual([]);
    expect([...prices().values()]).toEqual(Array.from({ length: STRANGE }, () => 300));
    await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveCount(0);

    // Asked again, the trader ticks the box and confirms, all from the keyboard: the apply runs.
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Shift+Tab');
    const meant = dialog.getByRole('checkbox', { name: 'I checked these prices and mean them' });
    await expect(meant).toBeFocused();
    await page.keyboard.press('Space');
    await expect(meant).toBeChecked();
    await expect(confirm).toBeEnabled();
    await shot(page, '4-guard-ticked');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Enter');
    const progress = page.getByRole('region', { name: 'Apply progress' });
    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(progress).not.toContainText('refused');
    expect(edits().length).toBeGreaterThan(0);
    expect([...prices().values()]).toEqual(Array.from({ length: STRANGE }, () => 15));
    await shot(page, '5-applied');

    // "Undo this apply", from the keyboard: a draft that puts the 29 back, its review open.
    await tabTo(page, 'Undo this apply');
    await page.keyboard.press('Enter');
    const undone = page.getByTestId('undo-result');
    await expect(undone).toBeFocused();
    await expect(undone).toContainText(`This draft sets ${STRANGE} rows back to their values before the apply.`);
    await expect(page.getByRole('button', { name: `Apply ${STRANGE} changes` })).toBeEnabled();
    await expect(progress).toHaveCount(0);
    await shot(page, '6-undo-draft');

    // Its apply: the guard marks the rises back from $0.15 to $3.00 (20×) and asks again; confirmed, it runs.
    const editsBefore = edits().length;
    await page.keyboard.press('Control+Enter');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`${STRANGE} listings rise more than 10×, the most 20.0× ($0.15 → $3.00).`);
    await expect(confirm).toBeDisabled();
    await shot(page, '7-undo-guard-asks');
    await page.keyboard.press('Shift+Tab');
    await expect(meant).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(progress).not.toContainText('refused');
    expect(edits().length).toBeGreaterThan(editsBefore);
    expect([...prices().values()]).toEqual(Array.from({ length: STRANGE }, () => 300));
    await shot(page, '8-undone');
    expect(errors).toEqual([]);
    await page.close();
  } finally {
    await desk.close();
  }
});
