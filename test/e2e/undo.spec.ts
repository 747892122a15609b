import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { formatCents } from '../../src-shared/money.ts';
import { startTestDesk } from './desk-fixture.ts';
import { openDesk, rendererForSpecs, useColorScheme, goToScreen as go } from './harness.ts';

/**
 * Undo an apply, as a trader does it: an apply that repriced 29 listings
 * (those the simulator's buyers left) and deleted one has ended; "Undo this apply" (from the keyboard) makes a
 * draft that the Drafts screen shows at once, its review open, with what
 * cannot come back; applied, the service holds the old prices again, and
 * "List it again" lists the deleted listing's asset again at its price. The
 * screen is looked at in Chromium at the smallest and a large window, light
 * and dark (pictures under test-results/screenshots), and axe finds nothing
 * serious on it.
 */

const server = rendererForSpecs();

test('"Undo this apply" makes a draft that brings the prices back, and says the deleted listing cannot come back', async ({ page }) => {
  test.setTimeout(180_000);
  const desk = await startTestDesk({ timeScale: 60, ledgerSize: 30 });
  try {
    const { sandbox } = desk;
    const { errors } = await openDesk(page, desk.router, server());
    await go(page, 9);
    await page.locator('#api-key').fill(sandbox.apiKey);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 30_000 }).toBe(true);

    // The apply to take back: 29 listings 20 % dearer, and one deleted.
    const before = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    const ledger = (await desk.ask('ledger:page', { domain: 'listings', offset: 0, limit: 30 })).rows.map((r) => ({ asset_id: r.key, price: r.price }));
    expect(ledger).toHaveLength(30);
    const gone = ledger[29]?.asset_id ?? '';
    const drafted = await desk.router.invoke('drafts:addChanges', {
      changes: [
        ...ledger.slice(0, 29).map((l) => ({ kind: 'listing.edit' as const, asset_id: l.asset_id, price: Math.round(l.price * 1.2) })),
        { kind: 'listing.delete' as const, asset_id: gone },
      ],
    });
    expect(drafted).toMatchObject({ ok: true, value: { added: 30 } });
    await go(page, 7);
    await expect(page.getByRole('button', { name: 'Apply 30 changes' })).toBeEnabled();
    await page.keyboard.press('Control+Enter');
    const progress = page.getByRole('region', { name: 'Apply progress' });
    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    // (The simulator's buyers may take a listing meanwhile: its edit is then not sent, and there is nothing to undo.)
    const mistake = (await desk.ask('drafts:list')).currentId ?? '';
    const sent = await desk.ask('drafts:page', { draftId: mistake, kind: 'listing.edit', show: 'all', limit: 500 });
    const edited = sent.rows.filter((r) => r.status === 'done').map((r) => r.target);
    expect(edited.length).toBeGreaterThan(20);
    for (const asset of edited) expect(sandbox.admin.listings().find((l) => l.asset_id === asset)?.price).toBe(Math.round((before.get(asset) ?? 0) * 1.2));

    // From the keyboard: the button takes the focus and Enter presses it.
    const dir = join('test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    const undo = progress.getByRole('button', { name: 'Undo this apply' });
    await undo.focus();
    await expect(undo).toBeFocused();
    await page.screenshot({ path: join(dir, 'undo-button-1280-light.png') });
    await page.keyboard.press('Enter');
    const result = page.getByTestId('undo-result');
    // The keyboard goes on from what the undo made.
    await expect(result).toBeFocused();
    await expect(result).toContainText(/“Undo of apply \d{4}-\d\d-\d\d \d\d:\d\d” is ready to review/);
    await expect(result).toContainText(`This draft sets ${edited.length} rows back to their values before the apply. Nothing is sent until you apply it.`);
    await expect(result).toContainText('Cannot come back (1)');
    await expect(result).toContainText(`Listing of asset ${gone}`);
    await expect(result).toContainText('Deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing.');
    // The undo draft is the one shown, its review open; the finished apply stays with its own draft.
    await expect(page.locator('.head h2')).toHaveText(/^Undo of apply /);
    await expect(page.getByRole('region', { name: 'Review', exact: true })).toContainText(String(edited.length));
    await expect(progress).toHaveCount(0);

    // Looked at as a trader would, smallest and large, light and dark; axe finds nothing on it.
    for (const size of [{ width: 1024, height: 700 }, { width: 1920, height: 1080 }]) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await useColorScheme(page, scheme);
        await expect(result).toBeVisible();
        await page.screenshot({ path: join(dir, `undo-result-${size.width}-${scheme}.png`) });
        const box = await result.boundingBox();
        expect(box && box.x + box.width <= size.width, `the panel fits ${size.width}`).toBe(true);
        const { violations } = await new AxeBuilder({ page }).include('[data-testid=undo-result]').analyze();
        expect(violations.map((v) => `${v.id}: ${v.help}`), `${size.width} ${scheme}`).toEqual([]);
      }
    }

    await page.keyboard.press('Tab');
    await expect(result.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Control+Enter');
    const again = page.getByRole('region', { name: 'Apply progress' });
    await expect(again).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    await expect(again).not.toContainText('refused');
    // The service holds the old prices again (of what is still on the market); the deleted listing stays deleted.
    const standing = new Map(sandbox.admin.listings().filter((l) => l.state === 'active').map((l) => [l.asset_id, l.price]));
    const back = edited.filter((asset) => standing.has(asset));
    expect(back.length).toBeGreaterThan(20);
    for (const asset of back) expect(formatCents(standing.get(asset) ?? 0), asset).toBe(formatCents(before.get(asset) ?? -1));
    expect(sandbox.admin.listings().some((l) => l.asset_id === gone)).toBe(false);

    // The deleted listing's asset can go up again: a draft of its own, reviewed and applied like any.
    await result.getByRole('button', { name: 'List it again' }).click();
    const relisted = page.getByTestId('relist-result');
    await expect(relisted).toBeFocused();
    await expect(result).toHaveCount(0);
    await expect(relisted).toContainText('This draft lists 1 asset again at the price, promotion and note its listing had before the apply deleted it.');
    await expect(page.locator('.head h2')).toHaveText(/^List again: deleted by apply /);
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: join(dir, 'relist-result-1024-dark.png') });
    const { violations } = await new AxeBuilder({ page }).include('[data-testid=relist-result]').analyze();
    expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await page.keyboard.press('Control+Enter');
    const relist = page.getByRole('region', { name: 'Apply progress' });
    await expect(relist).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
    expect(sandbox.admin.listings().find((l) => l.asset_id === gone && l.state === 'active')?.price).toBe(before.get(gone));
    // Closed, the panel goes.
    await relisted.getByRole('button', { name: 'Close' }).click();
    await expect(relisted).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await desk.close();
  }
});
