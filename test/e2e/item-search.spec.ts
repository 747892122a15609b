import { expect, test, type Page } from '@playwright/test';
import type { LedgerRowView } from '../../src-shared/contract.ts';
import { adopt, keyIn, startTestDesk, type TestDesk } from './desk-fixture.ts';
import { axe, goToScreen as go, openDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * Items found the way a trader types them, against the simulator: on
 * Listings, words in any order, short forms ("pro ks", "aussie") and the
 * quality a name does not print ("unusual") find exactly the rows whose
 * items read so, and the filters by quality, effect, killstreak tier,
 * craftability and wear narrow them as the rows' parts say. In buy-by-name,
 * names typed in any order, in lower case, without accents or with a typo
 * (offered as "did you mean") resolve to their SKU, and a base name offers
 * what else the item comes as: the SKU chosen is the one applied.
 */

let server: StaticServer;
let desk: TestDesk;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await serveRenderer();
  desk = await startTestDesk({
    timeScale: 60,
    ledgerSize: 2_000,
    // Every free Team Captain and key too, so the names typed below have rows to find.
    seed: ({ repos, sandbox }) => {
      const wanted = (sku: string) => sku.startsWith('378;') || sku.startsWith('5021;');
      const count = sandbox.admin.inventory().filter((a) => wanted(a.sku)).length;
      if (count > 0) adopt(repos, sandbox, sandbox.admin.seedListingsOf(count, (a) => wanted(a.sku), 1_500));
    },
  });
  await keyIn(desk);
});
test.afterAll(async () => {
  await desk?.close();
  await server?.close();
});

/** Every Listings row as main names it, read a page at a time without a filter. */
async function everyListing(): Promise<LedgerRowView[]> {
  const rows: LedgerRowView[] = [];
  for (;;) {
    const r = await desk.router.invoke('ledger:page', { domain: 'listings', filter: {}, offset: rows.length, limit: 500 });
    if (!r.ok) throw new Error(r.error.message);
    const page = r.value as { total: number; rows: LedgerRowView[] };
    rows.push(...page.rows);
    if (rows.length >= page.total || page.rows.length === 0) return rows;
  }
}

/** What the table's counts say it shows ("N of M · …"). */
async function shown(page: Page): Promise<number> {
  const text = (await page.getByTestId('table-counts').textContent()) ?? '';
  return Number(/^([\d,]+) of/.exec(text.trim())?.[1]?.replace(/,/g, '') ?? NaN);
}

async function expectShown(page: Page, count: number): Promise<void> {
  await expect.poll(() => shown(page), { timeout: 10_000 }).toBe(count);
}

async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await axe(page).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A war-painted Shotgun, Field-Tested. */
const SKIN = '199;15;w3;pk120';

const named = (r: LedgerRowView) => r.item?.name ?? '';

test('Listings: words in any order, short forms and unprinted qualities find the rows whose items read so; the item filters narrow by parts', async ({ page }) => {
  test.setTimeout(180_000);
  const all = await everyListing();
  const { errors } = await openDesk(page, desk.router, server, 'listings');
  await expectShown(page, all.length);
  const search = page.getByLabel('Search listings');

  const cases: Array<[typed: string, finds: (r: LedgerRowView) => boolean]> = [
    ['unusual', (r) => r.item?.quality === 'Unusual' || /\bunusual/i.test(named(r))],
    ['aussie', (r) => r.item?.australium === true || /\baustralium/i.test(named(r))],
    ['pro ks rocket launcher', (r) => /Professional Killstreak/.test(named(r)) && /Rocket Launcher/.test(named(r))],
    ['team captain burning flames', (r) => /Burning Flames Team Captain/.test(named(r))],
    ['Burning Flames Team Captain', (r) => /Burning Flames Team Captain/.test(named(r))],
    ['mann co supply crate key', (r) => /Mann Co\. Supply Crate Key/.test(named(r))],
  ];
  const figures: Record<string, number> = {};
  for (const [typed, finds] of cases) {
    const expected = all.filter(finds).length;
    figures[typed] = expected;
    expect(expected, `the ledger holds rows for "${typed}"`).toBeGreaterThan(0);
    await search.fill(typed);
    await expectShown(page, expected);
  }
  // A letter missing finds nothing; the near name is offered, and taken it finds the keys.
  await search.fill('Mann Co Suply Crate Key');
  await expectShown(page, 0);
  const near = page.getByTestId('search-near-miss');
  // The first name asked about loads the game's item lists (30 MB of JSON: about 0.6 s here, several seconds on a
  // machine busy with another spec); the searches above read the names the profile keeps.
  await expect(near).toHaveText('Did you mean Mann Co. Supply Crate Key?', { timeout: 30_000 });
  expect(await axeViolations(page)).toEqual([]);
  await near.getByRole('button').click();
  await expect(search).toHaveValue('Mann Co. Supply Crate Key');
  await expectShown(page, figures['mann co supply crate key'] ?? NaN);
  console.log(`Listings rows found per search (of ${all.length}): ${JSON.stringify(figures)}`);
  // The rows shown for "unusual" each read as Unusual.
  await search.fill('unusual');
  const firstTitle = page.locator('[role=grid] [role=row][data-key] .item-name').first();
  await expect(firstTitle).toHaveAttribute('title', /Unusual/);
  await search.fill('');
  await expectShown(page, all.length);

  // The item filters: each narrows to the rows whose item has that part.
  await page.getByRole('button', { name: 'Filters' }).click();
  const filters = page.getByRole('group', { name: 'Item' });
  const filtered: Array<[label: string, option: RegExp, finds: (r: LedgerRowView) => boolean]> = [
    ['Quality', /^Unusual \(/, (r) => r.item?.quality === 'Unusual'],
    ['Killstreak', /^Professional$/, (r) => r.item?.killstreak === 'Professional Killstreak'],
    ['Craftable', /^Non-craftable$/, (r) => r.item?.craftable === false],
    ['Wear', /^Field-Tested \(/, (r) => r.item?.wear === 'Field-Tested'],
    ['Unusual effect', /^Burning Flames \(/, (r) => r.item?.effect === 'Burning Flames'],
  ];
  for (const [label, option, finds] of filtered) {
    const select = filters.getByLabel(label, { exact: true });
    const value = await select.locator('option', { hasText: option }).first().getAttribute('value');
    expect(value, `${label} offers ${option}`).not.toBeNull();
    await select.selectOption(value ?? '');
    const expected = all.filter(finds).length;
    expect(expected).toBeGreaterThan(0);
    await expectShown(page, expected);
    await select.selectOption('');
    await expectShown(page, all.length);
  }
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test('buy by name: names as typed resolve, a typo is offered as "did you mean", and "Team Captain" offers its qualities and effects; the SKU chosen applies', async ({ page }) => {
  test.setTimeout(180_000);
  const { errors } = await openDesk(page, desk.router, server, 'buy-orders');
  await page.getByRole('button', { name: 'Create…' }).click();
  const field = page.getByRole('combobox', { name: 'Item (name or SKU)' });
  const resolution = page.getByTestId('item-resolution');

  const names: Array<[typed: string, sku: string, name: string]> = [
    ['team captain burning flames', '378;5;u13', 'Burning Flames Team Captain'],
    ['Burning Flames Team Captain', '378;5;u13', 'Burning Flames Team Captain'],
    ['mann co supply crate key', '5021;6', 'Mann Co. Supply Crate Key'],
    ['ubersaw', '37;6', 'Übersaw'],
    ['pro ks rocket launcher', '205;6;kt-3', 'Professional Killstreak Rocket Launcher'],
  ];
  for (const [typed, sku, name] of names) {
    await field.fill('');
    await field.pressSequentially(typed);
    await expect(resolution).toHaveText(`Resolves to ${sku} (${name})`, { timeout: 20_000 });
  }

  // One letter missing: no item is called that, the near name is offered and taken with the keyboard.
  await field.fill('');
  await field.pressSequentially('Mann Co Suply Crate Key');
  await expect(resolution).toContainText('Did you mean “Mann Co. Supply Crate Key”?');
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([/Did you mean Mann Co\. Supply Crate Key\?\s*5021;6/]);
  await field.press('ArrowDown');
  await field.press('Enter');
  await expect(field).toHaveValue('Mann Co. Supply Crate Key');
  await expect(resolution).toHaveText('Resolves to 5021;6 (Mann Co. Supply Crate Key)');

  // A base name: the Unique one, with what else it comes as, each choice saying its SKU.
  await field.fill('');
  await field.pressSequentially('Team Captain');
  await expect(resolution).toHaveText('Resolves to 378;6 (Team Captain)', { timeout: 20_000 });
  const variants = page.getByTestId('item-variants');
  const quality = variants.getByLabel('Quality');
  const effect = variants.getByLabel('Effect');
  await expect(quality.locator('option')).toContainText(['Unique · 378;6', 'Strange · 378;11', 'Unusual · 378;5']);
  await expect(effect.locator('option').first()).toHaveText('None · 378;6');
  await expect(variants.getByLabel('Craftable')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Unusual chosen as the quality: any effect, or one of a hat's.
  await quality.selectOption('378;5');
  await expect(resolution).toHaveText('Resolves to 378;5 (Unusual Team Captain)');
  await expect(effect.locator('option').first()).toHaveText('Any effect · 378;5');

  // An effect chosen: each option says its SKU, and the one chosen is the SKU the form holds.
  const burning = effect.locator('option', { hasText: /^Burning Flames · / });
  await expect(burning).toHaveCount(1);
  expect(await burning.getAttribute('value')).toBe('378;5;u13');
  await effect.selectOption('378;5;u13');
  await expect(resolution).toHaveText('Resolves to 378;5;u13 (Burning Flames Team Captain)');
  await expect(variants.locator('legend')).toContainText('Burning Flames Team Captain');
  expect(await axeViolations(page)).toEqual([]);

  await page.getByLabel('Price per unit').fill('250.00');
  await page.getByLabel('Quantity').fill('1');
  await page.getByRole('button', { name: 'Add to draft' }).click();
  await expect(page.getByText('Buy order for 378;5;u13 added to the draft.')).toBeVisible();
  // A second order, for a skin with a wear, so the Buy orders' rows hold a wear to filter by.
  const added = await desk.router.invoke('drafts:addChanges', { changes: [{ kind: 'buyOrder.create', sku: SKIN, price: 500, quantity: 1 }] });
  expect(added.ok ? (added.value as { errorCount: number }).errorCount : added.error.message).toBe(0);
  await go(page, 7);
  await expect(page.getByRole('button', { name: 'Apply 2 changes' })).toBeEnabled();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(desk.sandbox.admin.buyOrders().filter((o) => o.sku === '378;5;u13').map((o) => [o.price, o.quantity])).toEqual([[25_000, 1]]);

  // Buy orders offer the same item filters, by what their rows hold.
  await go(page, 3);
  await page.getByRole('button', { name: 'Filters' }).click();
  const filters = page.getByRole('group', { name: 'Item' });
  for (const label of ['Quality', 'Unusual effect', 'Killstreak', 'Craftable', 'Wear']) await expect(filters.getByLabel(label, { exact: true })).toBeVisible();
  const byWear = filters.getByLabel('Wear', { exact: true });
  await byWear.selectOption((await byWear.locator('option', { hasText: /^Field-Tested \(1\)$/ }).getAttribute('value')) ?? '');
  await expect(page.locator(`[role=grid] [role=row][data-key="${SKIN}"]`)).toBeVisible();
  await expectShown(page, 1);
  await byWear.selectOption('');
  const byEffect = filters.getByLabel('Unusual effect', { exact: true });
  await byEffect.selectOption((await byEffect.locator('option', { hasText: /^Burning Flames \(1\)$/ }).getAttribute('value')) ?? '');
  await expect(page.locator('[role=grid] [role=row][data-key="378;5;u13"]')).toBeVisible();
  await expectShown(page, 1);
  expect(await axeViolations(page)).toEqual([]);
  expect(errors).toEqual([]);
});
