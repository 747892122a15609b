import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { backupNow } from '../../src-main/core/profile/backups.ts';
import { listBackups } from '../../src-main/core/profile/backup-files.ts';
import { createSettingsService } from '../../src-main/core/settings/settings-service.ts';
import { LATEST_VERSION } from '../../src-main/core/store/migrations.ts';
import { startTestDesk } from './desk-fixture.ts';
import { axe, openDesk, rendererForSpecs } from './harness.ts';

/**
 * Settings' Backups, in Chromium on the built renderer, the desk in its data
 * worker as the app runs it: every backup listed with its date, size, what
 * it holds and what wrote it; one chosen and restored from the keyboard,
 * after which the page loads again on the restored profile and says what
 * was done, the profile as it was kept as a backup of its own. At 1024×700
 * and 1920×1080, light and dark, with axe on the panel and its dialog.
 */

const DIR = join('test-results', 'screenshots');
const SIZES = [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }] as const;
const HOUR = 3_600_000;
const server = rendererForSpecs();

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`Settings lists the backups and restores the one chosen, from the keyboard, at ${size.width}×${size.height}, ${scheme}`, async ({ browser }) => {
      // Two days of the trader's work: a backup of each, the newer one under a day old (so no daily one is due meanwhile).
      const desk = await startTestDesk({
        ledgerSize: 25,
        tradeSchedule: false,
        seed: ({ store, repos }) => {
          const settings = createSettingsService(repos.settings);
          settings.update({ theme: scheme, guideDismissed: true });
          backupNow(store.db, store.path, Date.now() - 44 * HOUR);
          settings.update({ theme: scheme === 'dark' ? 'light' : 'dark' });
          repos.drafts.create('Weekend sale');
          backupNow(store.db, store.path, Date.now() - 20 * HOUR);
          repos.drafts.create('Monday’s repricing');
        },
      });
      const context = await browser.newContext({ viewport: size, colorScheme: scheme });
      const page = await context.newPage();
      try {
        const { errors } = await openDesk(page, desk.router, server(), 'settings');
        const panel = page.getByRole('region', { name: 'Backups' });
        const rows = panel.locator('[data-testid=backups] tbody tr');
        await expect(rows).toHaveCount(2);
        await expect(rows.nth(0).getByTestId('backup-holds')).toHaveText('25 listings, 0 buy orders, 1 draft (0 changes), 0 trades');
        await expect(rows.nth(1).getByTestId('backup-holds')).toHaveText('25 listings, 0 buy orders, 0 drafts (0 changes), 0 trades');
        await expect(rows.nth(0).locator('th')).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dDaily$/);
        await expect(rows.nth(0).locator('td').first()).toHaveText(/^\d+(\.\d)? (KB|MB)$/);
        // The fixture wrote these without the app noting its version: the data version says what they are.
        await expect(rows.nth(0).locator('td').nth(2)).toHaveText(`Data version ${LATEST_VERSION}`);
        await panel.scrollIntoViewIfNeeded();
        // Nothing cut or scrolled sideways.
        expect(await page.locator('main, .view').first().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        mkdirSync(DIR, { recursive: true });
        await page.screenshot({ path: join(DIR, `settings-backups-${size.width}x${size.height}-${scheme}.png`) });
        const panelScan = await axe(page).include('[aria-labelledby=backups-title]').analyze();
        expect(panelScan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

        // The older backup, from the keyboard: its button takes the focus with a ring, Enter asks, Tab reaches Restore.
        const older = rows.nth(1).getByRole('button', { name: /^Restore the backup of / });
        await older.focus();
        const ring = await older.evaluate((e) => {
          const style = e.ownerDocument.defaultView?.getComputedStyle(e);
          return style !== undefined && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none');
        });
        expect(ring).toBe(true);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('alertdialog');
        await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
        await expect(dialog).toContainText('Your profile as it is now is backed up first.');
        await page.screenshot({ path: join(DIR, `settings-backups-confirm-${size.width}x${size.height}-${scheme}.png`) });
        const dialogScan = await axe(page).include('[role=alertdialog]').analyze();
        expect(dialogScan.violations.map((v) => v.id)).toEqual([]);
        await page.keyboard.press('Tab');
        await expect(dialog.getByRole('button', { name: 'Restore this backup' })).toBeFocused();
        await page.keyboard.press('Enter');

        // The page loads again on the restored profile, and says what was done.
        await expect(page.getByTestId('backup-restored')).toHaveText(/^Restored the backup of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\. The profile as it was just before is kept as the backup of /);
        await expect(page.getByRole('status').filter({ hasText: /^Restored the backup of / }).first()).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
        expect((await desk.ask('drafts:list', {})).drafts.map((d) => d.name)).toEqual([]);
        await expect(panel.locator('[data-testid=backups] tbody tr')).toHaveCount(3);
        await expect(panel.locator('[data-testid=backups] tbody tr').first().locator('th')).toHaveText(/Before a restore$/);
        // The profile as it was, both drafts, is that backup.
        const saved = listBackups(desk.profilePath).find((b) => b.kind === 'before-restore');
        expect(saved).toBeDefined();
        await page.screenshot({ path: join(DIR, `settings-backups-restored-${size.width}x${size.height}-${scheme}.png`) });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await desk.close();
      }
    });
  }
}
