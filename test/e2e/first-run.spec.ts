import { createServer } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { formatCents } from '../../src-shared/money.ts';
import { startTestDesk } from './desk-fixture.ts';
import { goToScreen as go, openDesk, rendererForSpecs, screenshotsIn } from './harness.ts';

/**
 * The first run as a new trader meets it, from an empty profile:
 * the guided start in sandbox mode, a key tested while still exploring (it
 * goes to the live service: here the fixture's simulator, set under
 * Advanced), going live, live with no key, and live pointed at an address
 * nothing answers. Each screen is asked what it says; pictures of each step
 * go to test-results/first-run/ (artifacts, not committed).
 */

const server = rendererForSpecs();

const shot = screenshotsIn('first-run');

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function setLiveUrl(page: Page, url: string): Promise<void> {
  await go(page, 9);
  const fold = page.locator('details.advanced');
  if ((await fold.getAttribute('open')) === null) await fold.locator('summary').click();
  const field = page.getByLabel('Live service URL (HTTPS)');
  await field.fill(url);
  await field.press('Tab');
  await expect(page.locator('#url-problem')).toHaveText('');
}

/** Every screen's words (banners included): none may call a missing key rejected. */
async function everyScreenSays(page: Page): Promise<string[]> {
  const texts: string[] = [];
  for (let n = 1; n <= 8; n += 1) {
    await go(page, n);
    await expect(page.locator('main h1')).toBeVisible();
    texts.push(await page.locator('.content').innerText());
  }
  return texts;
}

test('the first run: sandbox explained, a key tested while exploring, going live, no key, an unreachable service', async ({ page }) => {
  test.setTimeout(240_000);
  // An empty profile: the desk's own defaults (sandbox mode, the real live URL). The fixture's simulator plays the live service.
  // Time runs 10× for the desk and both simulators: a rate window is 6 s, the interactive deadline 3 s.
  const desk = await startTestDesk({ savedSettings: true, timeScale: 10 });
  try {
    const live = desk.sandbox;
    const { errors } = await openDesk(page, desk.router, server());

    // 1. Sandbox mode, said for what it is, with the guided start above the cards.
    const banner = page.getByTestId('sandbox-banner');
    await expect(banner).toContainText('built-in simulator');
    await expect(banner).toContainText('nothing reaches the real marketplace');
    const guide = page.getByTestId('guided-start');
    await expect(guide).toContainText('Explore in sandbox mode');
    await expect(guide).toContainText('Nothing you do there reaches the real marketplace');
    await expect(guide).toContainText('Dashboard → Settings → API');
    await expect(guide).toContainText('api.liquid.tf');
    await expect(guide.getByRole('button', { name: 'Go live' })).toBeDisabled();
    // The balance the desk read from its own simulator (in its worker), as the bridge tells it.
    await expect.poll(async () => (await desk.ask('balance:get')).reading, { timeout: 15_000 }).not.toBeNull();
    const sandboxBalance = formatCents((await desk.ask('balance:get')).reading?.balance ?? 0);
    await expect(page.getByTestId('balance')).toHaveText(sandboxBalance, { timeout: 15_000 });
    const liveBalance = formatCents(live.admin.balance().balance);
    expect(liveBalance, 'the two simulators hold different balances').not.toBe(sandboxBalance);
    await shot(page, '1-fresh-sandbox');
    // In the smallest window the key field stays inside the guide's border (and its step's column).
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1024, height: 700 });
    const within = await guide.locator('#guide-api-key').evaluate((el) => {
      const field = el.getBoundingClientRect();
      const box = el.closest('[data-testid=guided-start]')?.getBoundingClientRect();
      const step = el.closest('li')?.getBoundingClientRect();
      return { guide: box !== undefined && field.right <= box.right - 1, step: step !== undefined && field.right <= step.right + 0.5 };
    });
    expect.soft(within, 'the key field inside the guide').toEqual({ guide: true, step: true });
    await shot(page, '1-fresh-sandbox-1024');
    if (viewport) await page.setViewportSize(viewport);

    // 2. Settings: the real service is the default, folded under Advanced; here it is pointed at the simulator playing it.
    await go(page, 9);
    await expect(page.locator('details.advanced')).not.toHaveAttribute('open');
    await expect(page.getByTestId('key-status')).toContainText('No key set. Sandbox mode needs none');
    await setLiveUrl(page, live.url);
    await expect(banner).toBeVisible();
    await shot(page, '2-settings-advanced');

    // 3. Back to the guide: paste the key; it is tested at once against the live service, and says what it found.
    await go(page, 1);
    await guide.locator('#guide-api-key').fill(live.apiKey);
    await guide.getByRole('button', { name: 'Save key' }).click();
    const result = guide.getByTestId('key-test');
    await expect(result).toHaveAttribute('data-outcome', 'accepted', { timeout: 35_000 });
    await expect(result).toContainText(`The key ending ••${live.apiKey.slice(-4)} works`);
    await expect(result).toContainText(`Account ${live.accounts.main}`);
    await expect(result).toContainText(`Balance ${liveBalance}`);
    await expect(result).toContainText(`${live.accounts.linked.length} linked accounts`);
    await expect(result).toContainText('The desk stays in sandbox mode');
    await expect(guide.locator('#guide-api-key')).toHaveValue('');
    await expect(page.getByTestId('key-status')).toContainText('accepted by the live service');
    // Still exploring: the sandbox's figures, and its ledger never learned the live account.
    await expect(page.getByTestId('balance')).toHaveText(sandboxBalance);
    const accounts = await desk.ask('accounts:list');
    expect([accounts.main?.id64, ...accounts.linked.map((a) => a.id64)]).not.toContain(live.accounts.main);
    await shot(page, '3-key-tested-in-sandbox');

    // 4. Go live: the live account's figures, never the sandbox's; then Done puts the guide away for good.
    await guide.getByRole('button', { name: 'Go live' }).click();
    await expect(banner).toHaveCount(0);
    // Live is said as plainly as sandbox was, on every screen.
    await expect(page.getByTestId('live-banner')).toContainText(`real marketplace (${live.url})`);
    await expect(guide).toContainText('The desk is live on');
    // The test's words follow the desk: no "stays in sandbox mode" once live.
    await expect(result).not.toContainText('sandbox mode');
    await expect(page.getByTestId('balance')).toHaveText(liveBalance, { timeout: 20_000 });
    // The accounts the test read show at once (the list's own read waits a minute for the slot the test used),
    // and the first beat covers every linked account.
    await expect(page.getByTestId('main-account')).toHaveText(live.accounts.main, { timeout: 2_000 });
    const covered = `${live.accounts.linked.length} of ${live.accounts.linked.length}`;
    await expect(page.getByRole('region', { name: 'Automation' })).toContainText(`Linked accounts covered${covered}`, { timeout: 20_000 });
    expect(live.log.counters.count429, '429s met by the desk').toBe(0);
    await expect(page.getByRole('region', { name: 'Automation' }).getByTestId('heartbeat-status')).toHaveText('Automated', { timeout: 20_000 });
    await shot(page, '4-live');
    await guide.getByRole('button', { name: 'Done' }).click();
    await expect(guide).toHaveCount(0);
    expect(await desk.ask('settings:get')).toMatchObject({ mode: 'live', guideDismissed: true });

    // 5. Live with no key: said at the top of every screen with the way to add one; no screen calls it rejected.
    await go(page, 9);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove key' }).click();
    await go(page, 1);
    const noKey = page.getByTestId('no-key-banner');
    await expect(noKey).toContainText('No API key set', { timeout: 5_000 });
    await expect(page.getByTestId('automation-no-key')).toContainText('No API key set');
    await expect(page.getByRole('button', { name: 'Beat now' })).toBeDisabled();
    // Let the desk's own requests find the key gone (the heartbeat's next try, the trade poll).
    await expect.poll(async () => (await desk.ask('scheduler:state')).blocked, { timeout: 20_000 }).toBe('auth');
    await shot(page, '5-live-no-key');
    for (const text of await everyScreenSays(page)) {
      expect(text).not.toMatch(/rejected/i);
      expect(text).not.toContain('API key refused');
    }
    await go(page, 1);
    await noKey.getByRole('button', { name: 'Add a key' }).click();
    await expect(page.locator('main h1')).toHaveText('Settings');

    // 6. Live, pointed at an address nothing answers, with the key back: said within seconds, at the top and on the cards.
    const deadUrl = `http://127.0.0.1:${await closedPort()}`;
    await setLiveUrl(page, deadUrl);
    await page.locator('#api-key').fill(live.apiKey);
    await page.getByRole('button', { name: 'Save key' }).click();
    const tested = page.getByTestId('key-test');
    await expect(tested).toHaveAttribute('data-outcome', 'unreachable', { timeout: 35_000 });
    await expect(tested).toContainText('Could not reach 127.0.0.1');
    await go(page, 1);
    await expect(page.getByTestId('unreachable-banner')).toContainText(`${deadUrl}: nothing answers at that address`, { timeout: 10_000 });
    const balanceCard = page.getByRole('region', { name: 'Balance' });
    await expect(balanceCard).not.toContainText(sandboxBalance);
    // (The wait's figure is on the desk's clock, which runs 10× here; the screen's clock does not.)
    await expect(balanceCard.getByTestId('read-state')).toContainText(/^Reading the balance… retrying (in [\d:]+( s)?|now): The service cannot be reached/, { timeout: 35_000 });
    // Beat now and Refresh say what they wait for, and answer within the interactive deadline.
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Beat now' }).click();
    // A beat that fails is the heartbeat's own news (its last error), not a failed click.
    await expect(page.getByRole('button', { name: 'Beat now' })).toBeEnabled({ timeout: 35_000 });
    await expect(page.getByRole('region', { name: 'Automation' })).toContainText('The service cannot be reached');
    await balanceCard.getByRole('button', { name: 'Refresh' }).click();
    // Said once: beside the button, or by the retried read's own line when that already says it.
    await expect(balanceCard.getByRole('button', { name: 'Refresh' })).toBeEnabled({ timeout: 35_000 });
    await expect(balanceCard).toContainText('The service cannot be reached');
    expect(Date.now() - clicked, 'ms from the clicks to both answers').toBeLessThan(70_000);
    await expect(page.locator('.content')).not.toContainText(sandboxBalance);
    await expect(page.getByTestId('trades-unknown')).toContainText('Not known while the service cannot be reached');
    await shot(page, '6-live-unreachable');
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});
