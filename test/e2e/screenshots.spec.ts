import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestDesk } from './desk-fixture.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { openDesk, serveRenderer } from './harness.ts';

/**
 * A picture of every screen in light and dark, for people to look at (kept as
 * artifacts under test-results/screenshots, not committed). The desk is given
 * a key, a ledger, a draft with edits and a trade needing action first, so
 * each screen shows what it is for.
 */

const DIR = join('test-results', 'screenshots');
const VIEWS = ['overview', 'listings', 'buy-orders', 'trades', 'accounts', 'drafts', 'activity', 'settings'] as const;

async function ok(router: Router, channel: string, input: unknown): Promise<unknown> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`);
  return result.value;
}

test('every screen, light and dark', async ({ browser }) => {
  test.setTimeout(180_000);
  mkdirSync(DIR, { recursive: true });
  const desk = await startTestDesk({ ledgerSize: 400, timeScale: 60 });
  const server = await serveRenderer();
  try {
    const { router, sandbox } = desk;
    await ok(router, 'key:set', { key: sandbox.apiKey });
    sandbox.admin.addTrade({ trade_type: 'market', role: 'seller', status: 'Action Required' });
    await ok(router, 'trades:checkNow', {}).catch(() => undefined);
    await ok(router, 'drafts:create', { name: 'Weekend repricing' });
    const page0 = (await ok(router, 'ledger:page', { domain: 'listings', offset: 0, limit: 120 })) as { rows: Array<{ key: string }> };
    await ok(router, 'ledger:bulk', {
      domain: 'listings', selection: { ids: page0.rows.map((r) => r.key) },
      op: { op: 'multiply', percent: 95, rounding: 'down' },
    });
    const free = sandbox.admin.inventory().slice(0, 30).map((a: { asset_id: string }) => a.asset_id);
    await ok(router, 'drafts:addChanges', {
      changes: free.map((asset_id: string) => ({ kind: 'listing.create', asset_id, price: 450, promoted: 0, game: '440' })),
    });

    for (const scheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 820 }, colorScheme: scheme });
      const { errors } = await openDesk(page, router, server);
      for (const [i, view] of VIEWS.entries()) {
        await page.keyboard.press(`Alt+${i + 1}`);
        await expect(page).toHaveURL(new RegExp(`#/${view}$`));
        await expect(page.locator('main h1')).toBeVisible();
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(DIR, `${view}-${scheme}.png`) });
      }
      // The working panels and a confirmation, as a trader meets them.
      await page.keyboard.press('Alt+2');
      await page.getByRole('button', { name: 'Create…' }).click();
      await page.screenshot({ path: join(DIR, `listings-create-${scheme}.png`) });
      await page.getByRole('button', { name: 'Close create listings' }).click();
      await page.getByRole('grid', { name: 'Listings' }).focus();
      await page.keyboard.press('Control+a');
      await page.getByRole('button', { name: 'Bulk edit…' }).click();
      await page.screenshot({ path: join(DIR, `listings-bulk-${scheme}.png`) });
      await page.getByRole('button', { name: 'Delete all…' }).click();
      await page.screenshot({ path: join(DIR, `listings-delete-all-${scheme}.png`) });
      await page.keyboard.press('Escape');
      expect(errors).toEqual([]);
      await page.close();
    }
  } finally {
    await server.close();
    await desk.close();
  }
});
