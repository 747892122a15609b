import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { backupNow } from '../../src-main/core/profile/backups.ts';
import { createSettingsService } from '../../src-main/core/settings/settings-service.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { LATEST_VERSION } from '../../src-main/core/store/migrations.ts';
import { startTestDesk, type TestDesk } from './desk-fixture.ts';
import { axe, bindDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * The recovery screen of a profile of random bytes, in Chromium on the built
 * renderer, with the desk's data worker finding it damaged: main's router
 * answers with the worker's recovery channels, then with the desk's once the
 * trader's choice opened the profile. At 1024×700
 * and 1920×1080, light and dark: axe finds nothing, the screen says what
 * happened and where the file went, and the keyboard alone restores the
 * backup, after which the desk loads with the backup's settings. Until the
 * trader chooses, a new start shows the same screen again, and a backup
 * from a newer version or an empty one is never restored unasked.
 */

const DIR = join('test-results', 'screenshots');
const SIZES = [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }] as const;

let server: StaticServer;
test.beforeAll(async () => {
  server = await serveRenderer();
});
test.afterAll(async () => {
  await server?.close();
});

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a damaged profile's recovery screen at ${size.width}×${size.height}, ${scheme}: clear, accessible, restored from the keyboard`, async ({ browser }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-recovery-'));
      let desk: TestDesk | null = null;
      try {
        const path = join(dataDir, 'default.sqlite');
        const store = openStore(path);
        createSettingsService(createRepos(store).settings).update({ theme: scheme === 'dark' ? 'light' : 'dark', guideDismissed: true });
        createRepos(store).drafts.create('Kept in the backup');
        backupNow(store.db, path, Date.now() - 3 * 3_600_000);
        store.close();
        const garbage = randomBytes(64 * 1024);
        writeFileSync(path, garbage);

        // The worker finds the profile damaged: only the recovery screen's channels answer, until the trader's choice opens it.
        desk = await startTestDesk({ dataDir });
        const problem = desk.connection().problem();
        expect(problem?.kind).toBe('damaged');

        const context = await browser.newContext({ viewport: size, colorScheme: scheme });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        await bindDesk(page, desk.router, server);
        await page.goto(server.url);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile is damaged');
        await expect(page.getByTestId('recovery-what')).toHaveText(/^The profile’s data file is damaged and cannot be read \(file is not a database\)\. It was moved aside, not deleted\.$/);
        await expect(page.getByTestId('recovery-moved')).toHaveText(problem?.movedTo ?? '');
        const restore = page.getByRole('button', { name: /^Restore the backup of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/ });
        await expect(restore).toBeVisible();
        await expect(page.getByRole('button', { name: 'Start fresh with an empty profile' })).toBeVisible();
        // Everything on screen, nothing cut or scrolled away.
        const overflow = await page.locator('html').evaluate((html) => html.scrollWidth > html.clientWidth);
        expect(overflow).toBe(false);

        const { violations } = await axe(page).analyze();
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        mkdirSync(DIR, { recursive: true });
        await page.screenshot({ path: join(DIR, `profile-recovery-${size.width}x${size.height}-${scheme}.png`) });

        // The keyboard alone: the first Tab reaches the first choice, with its focus ring drawn.
        await page.keyboard.press('Tab');
        await expect(restore).toBeFocused();
        const ring = await restore.evaluate((e) => {
          const style = e.ownerDocument.defaultView?.getComputedStyle(e);
          return style !== undefined && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none');
        });
        expect(ring).toBe(true);
        // Asked first, with what the backup holds: Cancel has the focus, the next Tab the restore.
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('alertdialog');
        await expect(dialog.getByRole('heading')).toHaveText(/^Restore the backup of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\?$/);
        await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
        await page.screenshot({ path: join(DIR, `profile-recovery-confirm-${size.width}x${size.height}-${scheme}.png`) });
        await page.keyboard.press('Tab');
        await expect(dialog.getByRole('button', { name: 'Restore this backup' })).toBeFocused();
        await page.keyboard.press('Enter');
        // The page loads the desk itself, on the restored profile (its saved theme).
        await page.locator('nav[aria-label=Screens]').waitFor();
        await expect(page.locator('html')).toHaveAttribute('data-theme', scheme === 'dark' ? 'light' : 'dark');
        expect(readFileSync(problem?.movedTo ?? '')).toEqual(garbage);
        expect(errors).toEqual([]);
        await context.close();
      } finally {
        await desk?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
}

test('a damaged profile is remembered across a restart; every backup is offered, a newer one refused, an empty one restored only when confirmed', async ({ browser }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-recovery-'));
  let desk: TestDesk | null = null;
  try {
    const path = join(dataDir, 'default.sqlite');
    const store = openStore(path);
    const hour = 3_600_000;
    backupNow(store.db, path, Date.now() - 50 * hour);
    createSettingsService(createRepos(store).settings).update({ theme: 'dark', guideDismissed: true });
    createRepos(store).drafts.create('Friday’s repricing');
    backupNow(store.db, path, Date.now() - 26 * hour);
    const newer = backupNow(store.db, path, Date.now() - 2 * hour);
    store.close();
    const raise = new DatabaseSync(newer.path);
    raise.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`);
    raise.close();
    writeFileSync(path, randomBytes(64 * 1024));

    desk = await startTestDesk({ dataDir, savedSettings: true });
    const first = desk.connection().problem();
    // The trader quits and starts the desk again before choosing: the same screen, no empty profile in the file's place.
    await desk.reopen();
    expect(desk.connection().problem()).toEqual(first);
    expect(existsSync(path)).toBe(false);

    const context = await browser.newContext({ viewport: { width: 1024, height: 700 }, colorScheme: 'light' });
    const page = await context.newPage();
    await bindDesk(page, desk.router, server);
    await page.goto(server.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile is damaged');
    const rows = page.locator('[data-testid=backups] tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0).getByTestId('backup-refusal')).toHaveText(new RegExp(`^It was saved by a newer version of Marketplace Desk \\(data version ${LATEST_VERSION + 1}; this version reads up to ${LATEST_VERSION}\\)`));
    await expect(rows.nth(0).getByRole('button')).toHaveCount(0);
    await expect(rows.nth(1).getByTestId('backup-holds')).toHaveText('0 listings, 0 buy orders, 1 draft (0 changes), 0 trades');
    await expect(rows.nth(2).getByTestId('backup-holds')).toHaveText('Nothing: an empty profile');
    mkdirSync(DIR, { recursive: true });
    await page.screenshot({ path: join(DIR, 'profile-recovery-backups-1024x700-light.png') });

    // The empty one asks, louder; cancelled, nothing is restored.
    await rows.nth(2).getByRole('button').click();
    await expect(page.getByTestId('restore-empty')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Restore the empty backup' })).toBeVisible();
    await page.screenshot({ path: join(DIR, 'profile-recovery-empty-1024x700-light.png') });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect(existsSync(path)).toBe(false);

    await rows.nth(1).getByRole('button').click();
    await page.getByRole('button', { name: 'Restore this backup' }).click();
    await page.locator('nav[aria-label=Screens]').waitFor();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // The live ledger's draft is the backup's (the desk opens in sandbox mode, as the profile saved it).
    expect(desk.read((db) => db.prepare('SELECT name FROM drafts').all())).toEqual([{ name: 'Friday’s repricing' }]);
    await context.close();
  } finally {
    await desk?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
