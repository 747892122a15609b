import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { backupNow } from '../../src-main/core/profile/backups.ts';
import { createSettingsService } from '../../src-main/core/settings/settings-service.ts';
import { openStore } from '../../src-main/core/store/db.ts';
import { createRepos } from '../../src-main/core/store/index.ts';
import { startTestDesk, type TestDesk } from './desk-fixture.ts';
import { bindDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * The recovery screen of a profile of random bytes, in Chromium on the built
 * renderer, with the desk's data worker finding it damaged: main's router
 * answers with the worker's recovery channels, then with the desk's once the
 * trader's choice opened the profile. At 1024×700
 * and 1920×1080, light and dark: axe finds nothing, the screen says what
 * happened and where the file went, and the keyboard alone restores the
 * backup, after which the desk loads with the backup's settings.
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

        const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
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
