import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CHANNEL_NAMES } from '../../../src-shared/channels.ts';
import { secretScanner } from './secret-scan.ts';
import { TEST_PASSWORD } from './server-client.ts';
import { signInPage, startServerDesk } from './server-desk.ts';

/**
 * A whole run of the server, scanned: every response the browser got, every
 * WebSocket frame the server sent (to the page and to the test's own
 * socket), every line of the server's log, and every file of its profile
 * folder, for the API key, a rejected key and the password. The key goes in
 * from the browser; the service echoes the key back in its errors, headers
 * and trades (the simulator's knobs); the diagnostics are downloaded; a
 * script calls with a bearer token.
 */
test('no response, frame, log line or profile file of a whole run holds the key or the password', async ({ browser }) => {
  test.setTimeout(180_000);
  const desk = await startServerDesk({ timeScale: 60, ledgerSize: 30 });
  const { sandbox } = desk;
  const scanner = secretScanner({ 'the API key': sandbox.apiKey, 'a rejected key': sandbox.keys.revoked, 'the password': TEST_PASSWORD });
  try {
    // The scanner finds what it looks for, spelled any way.
    const probe = secretScanner({ key: sandbox.apiKey });
    for (const text of [`x${sandbox.apiKey}x`, encodeURIComponent(`k=${sandbox.apiKey}`), Buffer.from(`u:${sandbox.apiKey}`).toString('base64'), sandbox.apiKey.toUpperCase()]) probe.scan('self-test', text);
    expect(probe.hits.length).toBeGreaterThanOrEqual(4);

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    page.on('response', (r) => void r.text().then((t) => scanner.scan(`response ${r.url()}`, `${JSON.stringify(r.headers())}\n${t}`), () => undefined));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => scanner.scan('frame (page)', String(f.payload))));
    await signInPage(page, desk, 'settings');

    // The key, typed in the browser.
    await page.locator('#api-key').fill(sandbox.apiKey);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`••${sandbox.apiKey.slice(-4)}`);
    await expect.poll(() => sandbox.admin.userAgent().automated, { timeout: 30_000 }).toBe(true);

    // The service echoes the key every way it can while the desk works.
    sandbox.faults.set({ echoKey: true, echoKeyEncoded: true, echoKeyInError: true, echoKeyInHeader: true, echoKeyInTrades: true });
    for (let n = 1; n <= 9; n += 1) {
      await page.keyboard.press(`Alt+${n}`);
      await page.waitForTimeout(150);
    }
    await page.keyboard.press('Alt+4');
    await page.getByRole('button', { name: 'Check now' }).click();
    await desk.ask('drafts:addChanges', { changes: [{ kind: 'listing.create', asset_id: sandbox.admin.inventory()[0]?.asset_id ?? '', price: 450, promoted: 0, game: '440' }] });
    await page.keyboard.press('Alt+7');
    // Control+Enter applies the draft the screen shows: once its review is read, not before.
    await expect(page.getByRole('button', { name: 'Apply 1 change' })).toBeVisible();
    await page.keyboard.press('Control+Enter');
    await expect(page.getByRole('region', { name: 'Apply progress' })).toHaveAttribute('data-state', /done|failed|stopped/, { timeout: 60_000 });
    for (const channel of CHANNEL_NAMES) if (!channel.startsWith('access:')) await desk.router.invoke(channel, {});

    // A rejected key, whose errors the service echoes too.
    await page.keyboard.press('Alt+9');
    await page.locator('#api-key').fill(sandbox.keys.revoked);
    await page.getByRole('button', { name: /Save key|Replace key/ }).click();
    await expect(page.getByTestId('key-status')).toContainText(`••${sandbox.keys.revoked.slice(-4)}`);
    await desk.router.invoke('balance:refresh', {});
    await desk.router.invoke('heartbeat:beatNow', {});

    // The diagnostics, downloaded; a script's call with a token.
    // From the keyboard: a banner or a backup's row can appear above the link between a click's press and release,
    // which moves the link from under the pointer, and the press focuses it without a click following.
    const download = page.waitForEvent('download');
    await page.getByTestId('download-diagnostics').focus();
    await page.keyboard.press('Enter');
    const bundle = readFileSync(await (await download).path(), 'utf8');
    expect(bundle).toContain('Marketplace Desk diagnostics');
    scanner.scan('download diagnostics', bundle);
    const made = await desk.ask('access:createToken', { name: 'scan' });
    const scripted = await fetch(`${desk.server().url}/api/trades:list`, { method: 'POST', headers: { authorization: `Bearer ${made.token}`, 'content-type': 'application/json' }, body: '{}' });
    scanner.scan('response script', await scripted.text());
    await context.close();

    // Everything the server wrote and sent, and every file it keeps (the key is in the keychain, not on disk).
    await desk.reopen();
    for (const line of desk.logLines()) scanner.scan('log', line);
    for (const frame of desk.frames()) scanner.scan('frame (test socket)', frame);
    for (const entry of readdirSync(desk.profileDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) scanner.scan(`file ${join(entry.parentPath, entry.name)}`, readFileSync(join(entry.parentPath, entry.name)).toString('latin1'));
    }
    const counts = scanner.counts();
    console.log(`secret scan: ${JSON.stringify(counts)}`);
    expect(counts.response ?? 0).toBeGreaterThan(10);
    expect(counts.frame ?? 0).toBeGreaterThan(100);
    expect(counts.log ?? 0).toBeGreaterThan(20);
    expect(scanner.hits).toEqual([]);
  } finally {
    await desk.close();
  }
});
