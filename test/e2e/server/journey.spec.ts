import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatCents, parseCents } from '../../../src-shared/money.ts';
import { TEST_PASSWORD } from './server-client.ts';
import { startServerDesk } from './server-desk.ts';

/**
 * The trader's first hour with the server, in Chromium over real HTTP and
 * the real WebSocket: the setup link the log printed sets the password; the
 * desk opens; the key goes in from Settings; Listings shows the ledger; a
 * price is edited, applied and done on the service; a token is made for a
 * script, used, and revoked; signing out leads back to the sign-in page.
 * Pictures at 1024×700 and 1920×1080 go to test-results/server-journey.
 */
const DIR = join('test-results', 'server-journey');
const PASSWORD = TEST_PASSWORD;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  await page.screenshot({ path: join(DIR, `${name}.png`) });
}

test('setup link, sign in, Listings, a price edited and applied, a token for scripts, sign out', async ({ browser }) => {
  test.setTimeout(240_000);
  const desk = await startServerDesk({ ledgerSize: 40, timeScale: 60, tradeSchedule: false, pageSetsPassword: true });
  const { sandbox } = desk;
  try {
    const { url } = desk.server();
    const link = desk.server().setupLink();
    expect(link, 'the first start prints a setup link').toMatch(new RegExp(`^${url}/setup#[\\w-]{20,}$`));
    const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });

    // Without a session every page leads to the sign-in page, which says a setup link is needed first.
    await page.goto(`${url}/#/listings`);
    await expect(page).toHaveURL(`${url}/login#/listings`);
    await expect(page.getByText('No password is set yet.')).toBeVisible();

    // The setup link: a password too short is refused where it is typed, then one that will do.
    await page.goto(link as string);
    await expect(page.getByLabel('New password')).toBeFocused();
    await shot(page, '1-setup-1024');
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('The same password again').fill('short');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Use at least 10 characters.' })).toBeVisible();
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${url}/`);
    await page.locator('nav[aria-label=Screens]').waitFor();
    await desk.connect();

    // The link worked once.
    const again = await context.newPage();
    await again.goto(link as string);
    await expect(again.getByText('A password is set already.')).toBeVisible();
    await again.close();

    // Settings: the key, typed in the browser, goes to the server's key store; the page sees its last four characters.
    await page.keyboard.press('Alt+9');
    await page.locator('#api-key').fill(sandbox.apiKey);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`Set, ends in ••${sandbox.apiKey.slice(-4)}`);
    await expect(page.locator('#api-key')).toHaveValue('');
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 30_000 }).toBe(true);

    // Listings: the ledger's rows; a price edited in place.
    await page.keyboard.press('Alt+2');
    const grid = page.getByRole('grid', { name: 'Listings' });
    const rows = grid.locator('[role=row][data-key]');
    await expect(rows.first()).toBeVisible();
    await expect(page.getByTestId('table-counts')).toContainText('40');
    await shot(page, '2-listings-1024');
    const asset = (await rows.first().getAttribute('data-key')) as string;
    // A few cents up: within the price guard (a deep cut or a large rise asks first).
    const next = (parseCents((await rows.first().locator('.money').textContent()) ?? '') ?? 0) + 7;
    await rows.first().click();
    await page.keyboard.press('Enter');
    await page.getByLabel('New price').fill(formatCents(next).replace(/[$,]/g, ''));
    await page.keyboard.press('Enter');
    await expect(grid.locator(`[role=row][data-key="${asset}"] .pending`)).toHaveText(formatCents(next));

    // Drafts: apply; done on the service.
    await page.keyboard.press('Alt+7');
    await expect(page.getByRole('button', { name: 'Apply 1 change' })).toBeEnabled();
    await page.keyboard.press('Control+Enter');
    const progress = page.getByRole('region', { name: 'Apply progress' });
    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    expect(sandbox.admin.listings().find((l) => l.asset_id === asset)?.price).toBe(next);
    await shot(page, '3-applied-1024');

    // Settings → Access: a token for a script, shown once; it works, then it is revoked and does not.
    await page.keyboard.press('Alt+9');
    const access = page.getByTestId('access-section');
    await expect(access).toContainText('Reached from this machine only');
    await access.getByLabel('Name').fill('repricing script');
    await access.getByRole('button', { name: 'Make a token' }).click();
    const made = access.getByLabel(/Token “repricing script”/);
    const token = await made.inputValue();
    expect(token).toMatch(/^mdt_[\w-]{40,}$/);
    await shot(page, '4-settings-token-1024');
    const asScript = (bearer: string) => fetch(`${url}/api/ledger:page`, {
      method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'listings', offset: 0, limit: 5 }),
    });
    const answer = await asScript(token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true, value: { rows: expect.any(Array) } });
    await access.getByRole('button', { name: 'Done' }).click();
    await expect(made).toHaveCount(0);
    await expect(access.getByRole('cell', { name: 'repricing script', exact: true })).toBeVisible();
    await access.getByRole('button', { name: 'Revoke repricing script' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(access.getByText('No tokens.')).toBeVisible();
    expect((await asScript(token)).status).toBe(401);

    // The same screens at 1920×1080.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, '5-settings-1920');
    await page.keyboard.press('Alt+2');
    await expect(rows.first()).toBeVisible();
    await shot(page, '6-listings-1920');

    // Sign out: the page goes to sign in, and the old session is refused.
    await page.keyboard.press('Alt+9');
    await access.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/login`);
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await shot(page, '7-login-1920');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.keyboard.press('Enter');
    await expect(page.getByText('That password is not right.')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${url}/`);

    await page.locator('nav[aria-label=Screens]').waitFor();
    // The one refusal Chromium reports is the wrong password's.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized)']);
    await context.close();
  } finally {
    await desk.close();
  }
});
