import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatCents, parseCents } from '../../src-shared/money.ts';
import { startTestDesk, type TestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, goToScreen as go } from './harness.ts';

/**
 * What the screen shows is what main holds: each case is a way the first
 * desk's copy of the state drifted from main's, driven through the UI in
 * Chromium against the simulator.
 */

const server = rendererForSpecs();

async function saveKey(page: Page, key: string): Promise<void> {
  await go(page, 9);
  await page.locator('#api-key').fill(key);
  await page.getByRole('button', { name: /Save key|Replace key/ }).click();
  await expect(page.getByTestId('key-status')).toContainText(`••${key.slice(-4)}`);
}

/** Drafts `count` creates at $4.50 through the Create panel; returns their asset IDs. */
async function draftCreates(page: Page, desk: TestDesk, count: number, from = 0): Promise<string[]> {
  const assets = desk.sandbox.admin.inventory().slice(from, from + count).map((a) => a.asset_id);
  await go(page, 2);
  await page.getByRole('button', { name: 'Create…' }).click();
  await page.getByRole('tab', { name: 'Asset IDs' }).click();
  await page.getByLabel('Asset IDs, one per line').fill(assets.join('\n'));
  await page.getByLabel('Price for all').fill('4.50');
  await page.getByRole('button', { name: `Add ${count.toLocaleString('en-US')} listings to draft` }).click();
  await expect(page.getByText(`${count.toLocaleString('en-US')} listings added to the draft at $4.50.`)).toBeVisible();
  return assets;
}

test('Cancel: the Drafts screen is usable again within 2 s of main ending the job, whatever order the reply and the events arrive in', async ({ page }) => {
  test.setTimeout(120_000);
  const desk = await startTestDesk({ timeScale: 1 });
  try {
    // The reply to Cancel ("cancelling") reaches the screen after main's later "cancelled" event.
    const { errors } = await openDesk(page, desk.router, server(), 'overview', { replyDelayMs: { 'apply:cancel': 3200 } });
    await saveKey(page, desk.sandbox.apiKey);
    // Eight requests of 100: five go at once (5 a minute), three wait for the next minute.
    await draftCreates(page, desk, 800);
    // Every create request takes 3 s: Cancel lands while they are in flight.
    desk.sandbox.faults.set({ delayMs: { ms: 3000, endpoints: ['create_listing'] } });

    await go(page, 7);
    await page.getByRole('button', { name: 'Apply 800 changes' }).click();
    const panel = page.getByRole('region', { name: 'Apply progress' });
    await expect(panel).toHaveAttribute('data-state', 'running');
    // The first window's five requests are on their way (the run plans them a step at a time after the first).
    await expect.poll(async () => (await desk.ask('apply:state')).job?.requestsSent, { timeout: 10_000, intervals: [10] }).toBe(5);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel).toHaveAttribute('data-state', /cancelling|cancelled/);

    // Main's job ends once the requests in flight are answered; the screen follows within 2 s.
    await expect.poll(async () => (await desk.ask('apply:state')).job?.state, { timeout: 90_000, intervals: [20] }).toBe('cancelled');
    // By 1.9 s later every message is in (the reply comes 3.2 s after the click, after the job ended: its requests were under way for 3 s).
    await page.waitForTimeout(1900);
    await expect(panel).toHaveAttribute('data-state', 'cancelled', { timeout: 100 });
    await expect(page.getByRole('button', { name: 'Apply 300 changes' })).toBeEnabled({ timeout: 100 });
    await expect(page.getByText('This draft is being applied.')).toHaveCount(0);
    // Apply again works: the screen was not holding a stale "running".
    desk.sandbox.faults.clear();
    await page.getByRole('button', { name: 'Apply 300 changes' }).click();
    await expect(panel).toHaveAttribute('data-state', 'running');
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('a finished apply leaves with its draft: no progress bar after discard, none above a new draft', async ({ page }) => {
  test.setTimeout(90_000);
  const desk = await startTestDesk({ timeScale: 60 });
  try {
    const { errors } = await openDesk(page, desk.router, server());
    await saveKey(page, desk.sandbox.apiKey);
    await draftCreates(page, desk, 40);
    await go(page, 7);
    await page.getByRole('button', { name: 'Apply 40 changes' }).click();
    const panel = page.getByRole('region', { name: 'Apply progress' });
    await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(panel).toContainText('40 of 40 items');

    const drafts = page.getByRole('region', { name: 'Drafts' });
    await drafts.getByRole('button', { name: 'Discard' }).first().click();
    const confirm = page.getByRole('alertdialog');
    await expect.soft(confirm).toContainText('40 changes already applied stay applied');
    await confirm.getByRole('button', { name: 'Discard draft' }).click();
    await expect(panel).toHaveCount(0);
    await go(page, 1);
    await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveCount(0);

    await draftCreates(page, desk, 5, 40);
    await go(page, 7);
    await expect(page.getByRole('button', { name: 'Apply 5 changes' })).toBeEnabled();
    await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('a good key replacing a rejected one clears "rejected" on every screen at once', async ({ page }) => {
  test.setTimeout(90_000);
  const desk = await startTestDesk({ timeScale: 1 });
  try {
    const { errors } = await openDesk(page, desk.router, server());
    await saveKey(page, desk.sandbox.keys.revoked);
    await expect(page.getByTestId('key-status')).toContainText('rejected', { timeout: 15_000 });
    await go(page, 1);
    await expect(page.getByRole('region', { name: 'Automation' })).toContainText('rejected', { timeout: 15_000 });

    await saveKey(page, desk.sandbox.apiKey);
    const accepted = Date.now();
    await expect(page.getByTestId('key-status')).toContainText('accepted', { timeout: 10_000 });
    await go(page, 1);
    const card = page.getByRole('region', { name: 'Automation' });
    await expect(card.getByTestId('heartbeat-status')).toHaveText('Automated', { timeout: 5000 });
    await expect(card).not.toContainText('rejected');
    await expect(page.getByRole('alert').filter({ hasText: 'API key rejected' })).toHaveCount(0);
    expect(Date.now() - accepted, 'ms from the good key to every screen agreeing').toBeLessThan(10_000);
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('changing the heartbeat and poll intervals keeps the trades on screen and sends nothing extra', async ({ page }) => {
  test.setTimeout(90_000);
  const desk = await startTestDesk({ timeScale: 1 });
  try {
    const { sandbox } = desk;
    const { errors } = await openDesk(page, desk.router, server());
    // The trade is there before the key: the first read after the key brings it (the next is a minute away).
    const trade = sandbox.admin.addTrade({ trade_type: 'market', role: 'seller', status: 'Action Required' });
    await saveKey(page, sandbox.apiKey);
    await go(page, 4);
    const card = page.locator(`[data-trade-id="${trade.trade_id}"]`);
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 15_000 }).toBe(true);
    // Let the start-up reads finish, then count from a quiet moment.
    let seen = -1;
    await expect.poll(async () => {
      const before = sandbox.log.requests.length;
      await page.waitForTimeout(1000);
      const quiet = sandbox.log.requests.length === before;
      seen = sandbox.log.requests.length;
      return quiet;
    }, { timeout: 30_000 }).toBe(true);

    await go(page, 9);
    await page.getByLabel('Heartbeat interval in minutes').selectOption('7');
    // Saved before the next field is typed in (a save's answer redraws the form, as a trader's pause would let it).
    await expect.poll(async () => (await desk.ask('settings:get')).heartbeatIntervalMinutes).toBe(7);
    const poll = page.getByLabel('Trade poll interval in seconds');
    await poll.fill('90');
    await poll.press('Tab');
    await go(page, 1);
    await expect(page.getByTestId('action-count')).not.toHaveText('0');
    await go(page, 4);
    // For five seconds the trade never leaves the screen and nothing is sent.
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      await expect(card).toBeVisible({ timeout: 100 });
      await page.waitForTimeout(100);
    }
    const after = sandbox.log.requests.slice(seen).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(after, 'requests sent after the settings change').toEqual([]);
    expect(sandbox.log.counters.count429).toBe(0);
    expect(await desk.ask('settings:get')).toMatchObject({ heartbeatIntervalMinutes: 7, tradePollSeconds: 90 });
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('Delete all shows the rows it takes and what becomes of pending edits, before and after', async ({ page }) => {
  test.setTimeout(90_000);
  const desk = await startTestDesk({ timeScale: 60, ledgerSize: 30 });
  try {
    const { errors } = await openDesk(page, desk.router, server(), 'listings');
    const grid = page.getByRole('grid', { name: 'Listings' });
    const rows = grid.locator('[role=row][data-key]');
    await expect(rows.first()).toBeVisible();
    // Two pending price edits, a few cents up (within the price guard: a deep cut would ask first).
    for (const n of [0, 1]) {
      const now = parseCents((await rows.nth(n).locator('.money').textContent()) ?? '') ?? 0;
      const next = formatCents(now + n + 1);
      await rows.nth(n).click();
      await page.keyboard.press('Enter');
      await page.getByLabel('New price').fill(next.replace(/[$,]/g, ''));
      await page.keyboard.press('Enter');
      await expect(rows.nth(n).locator('.pending')).toHaveText(next);
    }

    await page.getByRole('button', { name: 'Delete all…' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog.getByTestId('delete-all-impact')).toContainText('30 listings');
    await expect(dialog.getByTestId('delete-all-impact')).toContainText('2 pending edits and deletes of those listings leave the draft');
    await dialog.getByRole('button', { name: /Put delete all/ }).click();

    // Every row the delete-all takes says so; the two edits no longer show as pending.
    await expect(rows.first().locator('.chg')).toHaveText('all');
    const marks = await rows.locator('.chg').allTextContents();
    expect(marks.length).toBeGreaterThan(10);
    expect(new Set(marks)).toEqual(new Set(['all']));
    await expect(grid.locator('.pending')).toHaveCount(0);

    await go(page, 7);
    const review = page.getByRole('region', { name: 'Review' });
    await expect(review).toContainText('30');
    await expect(review).toContainText(/2 pending edits? .*replaced by the delete-all|replaced 2/);
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('listings marked done after a lost create are left out of a bulk edit with a reason, not blocking it', async ({ page }) => {
  test.setTimeout(120_000);
  const desk = await startTestDesk({ timeScale: 60, ledgerSize: 20 });
  try {
    const { sandbox } = desk;
    const { errors } = await openDesk(page, desk.router, server());
    await saveKey(page, sandbox.apiKey);
    const created = await draftCreates(page, desk, 10, 100);
    // The service creates them, and the answer is lost.
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    // The apply refuses creates until the heartbeat has marked the account (a loaded machine can click before it).
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 30_000 }).toBe(true);
    await go(page, 7);
    await page.getByRole('button', { name: 'Apply 10 changes' }).click();
    const lost = page.getByRole('region', { name: 'Unknown outcomes' });
    await expect(lost).toBeVisible({ timeout: 60_000 });
    await lost.getByRole('button', { name: 'Mark as done' }).first().click();
    await expect(lost).toHaveCount(0, { timeout: 10_000 });

    await go(page, 2);
    const grid = page.getByRole('grid', { name: 'Listings' });
    await expect(grid.locator('[role=row][data-key]').first()).toBeVisible();
    await page.getByRole('button', { name: 'Select all' }).click();
    await expect(page.getByText(/· 30 selected/)).toBeVisible();
    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    await page.getByLabel('Operation').selectOption('multiply');
    await page.getByLabel('Percent').fill('90');
    const bulk = page.getByRole('form', { name: 'Bulk edit' });
    await expect(bulk).toContainText('10 listings left out: its listing ID is unknown');
    await bulk.getByRole('button', { name: 'Add to draft' }).click();
    // The others are edited (a few cheap ones stay at the same price); the ten are not.
    await expect(page.getByText(/^\d+ listings changed in the draft/)).toBeVisible();
    const search = page.getByLabel('Search listings');
    await search.fill(created[0] as string);
    await expect(grid.locator(`[role=row][data-key="${created[0]}"]`)).toContainText('ID unknown');
    await expect(grid.locator(`[role=row][data-key="${created[0]}"] .chg`)).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});

test('an unusable live service URL is refused or leaves the desk working with the reason, and a restart opens', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  let desk = await startTestDesk({ timeScale: 60, ledgerSize: 20, dataDir });
  try {
    const { errors } = await openDesk(page, desk.router, server());
    await saveKey(page, desk.sandbox.apiKey);
    const url = page.getByLabel('Live service URL (HTTPS)');

    // Plain http to another machine is refused where it was typed; nothing changes.
    await url.fill('http://203.0.113.9');
    await url.press('Tab');
    await expect(page.locator('#url-problem')).toHaveText(/^The service URL must use https:\/\//);
    let status = (await desk.router.invoke('app:status', {})) as { ok: true; value: { serviceUrl: string } };
    expect(status.value.serviceUrl).toBe(desk.sandbox.url);

    // An https address nothing answers: the desk switches, keeps working offline, and says why.
    await url.fill('https://127.0.0.1:9');
    await url.press('Tab');
    await go(page, 1);
    await expect(page.getByTestId('unreachable-banner')).toContainText('https://127.0.0.1:9: nothing answers at that address', { timeout: 30_000 });
    await go(page, 2);
    await expect(page.getByRole('grid', { name: 'Listings' }).locator('[role=row][data-key]').first()).toBeVisible();
    status = (await desk.router.invoke('app:status', {})) as { ok: true; value: { serviceUrl: string } };
    expect(status.value.serviceUrl).toBe('https://127.0.0.1:9');
    expect(errors).toEqual([]);

    // A restart with that URL saved still opens.
    await page.close();
    await desk.close();
    desk = await startTestDesk({ timeScale: 60, dataDir, savedSettings: true });
    const reopened = await browser.newPage();
    const again = await openDesk(reopened, desk.router, server(), 'settings');
    await expect(reopened.getByLabel('Live service URL (HTTPS)')).toHaveValue('https://127.0.0.1:9');
    await go(reopened, 2);
    await expect(reopened.getByRole('grid', { name: 'Listings' })).toBeVisible();
    expect(again.errors).toEqual([]);
    await reopened.close();
  } finally {
    await desk.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
