import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { systemClock } from '../../src-main/core/clock.ts';
import { createSettingsService } from '../../src-main/core/settings/settings-service.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { closedPort } from '../support/loopback-server.ts';
import { startTestDesk } from './desk-fixture.ts';
import { axe, openDesk, rendererForSpecs } from './harness.ts';

/**
 * Settings → Alerts in Chromium on the built renderer, the desk in its data
 * worker as the app runs it, from the keyboard: a Discord webhook added (its
 * URL typed once, shown after as host and last four characters), its alerts
 * chosen, a test sent to a receiver on 127.0.0.1 and its answer shown; a
 * signed one to a dead address says nothing answered; one removed after its
 * confirmation. At 1024×700 and 1920×1080, light and dark, with axe on the
 * panel; the URL's token is never on the page nor in anything the bridge carried.
 */

const DIR = join('test-results', 'screenshots');
const SIZES = [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }] as const;
const TOKEN = 'Zq3xT0kenPart-9f8e7d6c5b4a39281706ab';
const SECRET = 'relay-secret-7f3a9c2e11b0';
const server = rendererForSpecs();

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`Settings → Alerts: a webhook added, tested and removed from the keyboard, at ${size.width}×${size.height}, ${scheme}`, async ({ browser }) => {
      const desk = await startTestDesk({
        tradeSchedule: false,
        seed: ({ repos }) => void createSettingsService(repos.settings).update({ theme: scheme, guideDismissed: true }),
      });
      const receiver = await startWebhookReceiver(systemClock);
      const context = await browser.newContext({ viewport: size, colorScheme: scheme });
      const page = await context.newPage();
      const shot = (name: string) => page.screenshot({ path: join(DIR, `settings-alerts-${name}-${size.width}x${size.height}-${scheme}.png`) });
      mkdirSync(DIR, { recursive: true });
      try {
        const { errors } = await openDesk(page, desk.router, server(), 'settings');
        const panel = page.getByRole('region', { name: 'Alerts' });
        await expect(panel.getByTestId('webhooks-none')).toBeVisible();
        await panel.scrollIntoViewIfNeeded();

        // From the keyboard: the name, the URL, the apply alerts ticked, then Add.
        await panel.getByLabel('Receiver format').focus();
        await page.keyboard.press('Tab');
        await page.keyboard.type('Trades channel');
        await page.keyboard.press('Tab');
        await page.keyboard.type(`http://hooks.example/api/webhooks/1187/${TOKEN}`);
        await expect(panel.locator('#hook-url-help')).toContainText('must use https://');
        await shot('refused');
        await page.keyboard.press('Control+a');
        await page.keyboard.type(`${receiver.origin}/api/webhooks/1187/${TOKEN}`);
        await expect(panel.locator('#hook-url-help')).toContainText('kept in the system keychain');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await expect(panel.getByRole('checkbox', { name: 'Applies that ended' }).last()).toBeFocused();
        await page.keyboard.press('Space');
        await page.keyboard.press('Tab');
        await expect(panel.getByRole('button', { name: 'Add webhook' })).toBeFocused();
        await page.keyboard.press('Enter');

        const hook = panel.getByRole('listitem', { name: 'Trades channel' });
        await expect(hook).toContainText(`${new URL(receiver.origin).host} ••06ab`);
        await expect(hook.getByRole('checkbox', { name: 'Applies that ended' })).toBeChecked();
        await expect(panel.getByLabel('Webhook URL (https://, or http:// on this computer)')).toHaveValue('');

        // Send a test: the receiver's answer, said under the webhook.
        await hook.getByRole('button', { name: 'Send a test' }).focus();
        await page.keyboard.press('Enter');
        await expect(hook.getByTestId('webhook-last')).toHaveText(/^The receiver answered 204 No Content \(in \d+ ms\): the test arrived\.$/);
        expect(receiver.requests).toHaveLength(1);
        expect((JSON.parse(receiver.requests[0]?.body ?? '{}') as { embeds: Array<{ title: string }> }).embeds[0]?.title).toBe('A test alert from Marketplace Desk');
        await shot('tested');

        // A signed one to an address where nothing listens.
        await panel.getByLabel('Receiver format').selectOption('signed');
        await panel.getByLabel('Name').fill('Phone relay');
        await panel.getByLabel('Webhook URL (https://, or http:// on this computer)').fill(`http://127.0.0.1:${await closedPort()}/relay?key=${TOKEN}`);
        await panel.getByLabel(/^Signing secret/).fill(SECRET);
        await shot('signed-form');
        await panel.getByRole('button', { name: 'Add webhook' }).click();
        const relay = panel.getByRole('listitem', { name: 'Phone relay' });
        await relay.getByRole('button', { name: 'Send a test' }).click();
        await expect(relay.getByTestId('webhook-last')).toHaveText('Nothing answered: nothing answers at that address (ECONNREFUSED).');
        await relay.scrollIntoViewIfNeeded();
        await shot('two');
        expect(await page.locator('main, .view').first().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        const scan = await axe(page).include('[aria-labelledby=alerts-title]').analyze();
        expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

        // Removed after its confirmation: Cancel has the focus, Tab reaches Remove.
        await relay.getByRole('button', { name: 'Remove' }).focus();
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('alertdialog');
        await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
        await shot('remove');
        await page.keyboard.press('Tab');
        await expect(dialog.getByRole('button', { name: 'Remove webhook' })).toBeFocused();
        await page.keyboard.press('Enter');
        await expect(panel.getByRole('listitem')).toHaveCount(1);

        expect(await page.content()).not.toContain(TOKEN);
        expect(desk.transcript().filter((line) => line.includes(TOKEN) || line.includes(SECRET))).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await receiver.close();
        await desk.close();
      }
    });
  }
}
