import { expect, test } from '@playwright/test';
import { CHANNEL_NAMES } from '../../src-shared/contract.ts';
import { startTestDesk } from './desk-fixture.ts';
import { openDesk, serveRenderer } from './harness.ts';

/**
 * The API key goes from the renderer to the keychain once and never comes
 * back: every reply and every event of a whole session is scanned for it,
 * including after the service rejected a key.
 */
test('the API key never crosses the bridge back to the renderer', async ({ page }) => {
  test.setTimeout(120_000);
  const server = await serveRenderer();
  const desk = await startTestDesk({ timeScale: 60, ledgerSize: 50 });
  try {
    const { sandbox } = desk;
    const { errors } = await openDesk(page, desk.router, server);

    await page.keyboard.press('Alt+9');
    await page.locator('#api-key').fill(sandbox.apiKey);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`••${sandbox.apiKey.slice(-4)}`);

    // Walk every screen, so each store loads what it shows.
    for (let n = 1; n <= 9; n += 1) {
      await page.keyboard.press(`Alt+${n}`);
      await page.waitForTimeout(150);
    }
    // Ask every channel that takes no input, as a curious renderer could.
    for (const channel of CHANNEL_NAMES) await desk.router.invoke(channel, {});
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 20_000 }).toBe(true);

    // A rejected key must not come back inside an error either.
    await page.keyboard.press('Alt+9');
    await page.locator('#api-key').fill(sandbox.keys.revoked);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`••${sandbox.keys.revoked.slice(-4)}`);
    await desk.router.invoke('balance:refresh', {});
    await desk.router.invoke('heartbeat:beatNow', {});

    const transcript = desk.transcript();
    expect(transcript.length).toBeGreaterThan(CHANNEL_NAMES.length);
    for (const key of [sandbox.apiKey, sandbox.keys.revoked]) {
      // The last four characters are shown on purpose; any eight in a row are a leak.
      const windows = Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8));
      const leaks = transcript.filter((line) => windows.some((w) => line.includes(w)));
      expect(leaks, `key material found in ${leaks.length} bridge messages`).toEqual([]);
    }
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
    await server.close();
  }
});
