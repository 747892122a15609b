import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, test } from '@playwright/test';
import { createKeychainSecretStore } from '../../src-main/main-thread/keychain.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { openDesk, serveRenderer, type StaticServer } from './harness.ts';

/**
 * The screens over the desk as the app runs it: in its data worker thread
 * (sandbox mode, the built-in simulator inside the worker), reached through
 * main's connection, the same object the main process binds to ipcMain. The
 * worker is killed while the trader looks at a draft: the screen says the
 * store is restarting, then shows the same draft again, and keeps working.
 */
const DIR = join('test-results', 'data-worker');
let server: StaticServer;
let connection: DeskConnection | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'desk-e2e-worker-'));

test.beforeAll(async () => {
  server = await serveRenderer();
  const quiet = () => undefined;
  connection = await connectDesk({
    spawn: () => new Worker(DESK_WORKER),
    secrets: createKeychainSecretStore({ service: `Marketplace Desk e2e worker ${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}` }),
    config: { dataDir, version: 'e2e', clock: null, sandbox: { seed: 12, inventorySize: 500 } },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
  });
});
test.afterAll(async () => {
  await connection?.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('every screen answers from the data worker; a worker that dies is restarted under the trader’s eyes', async ({ page }) => {
  test.setTimeout(90_000);
  const desk = connection as DeskConnection;
  const { errors } = await openDesk(page, desk.router, server, 'overview');
  mkdirSync(DIR, { recursive: true });
  await expect(page.getByTestId('sandbox-banner')).toBeVisible();

  // A draft made on screen.
  await page.goto(`${server.url}#/drafts`);
  const list = page.getByRole('list', { name: 'Drafts' });
  await page.getByRole('region', { name: 'Drafts' }).getByRole('button', { name: 'New' }).click();
  await expect(list.getByText('Draft 1')).toBeVisible();
  await page.screenshot({ path: join(DIR, '1-draft.png'), fullPage: true });

  // The worker dies: the screen says so, and comes back with the same draft.
  const back = new Promise<void>((resolve) => {
    const off = desk.desk.on('store', (state) => {
      if (state === 'ready') {
        off();
        resolve();
      }
    });
  });
  await desk.kill();
  // Said while it restarts; a restart quicker than the screen's next frame shows only the "restarted" line below.
  await expect(page.getByTestId('store-banner')).toContainText(/Restarting the store|The store restarted/);
  await page.screenshot({ path: join(DIR, '2-restarting.png'), fullPage: true });
  await back;
  // Back: said for a few seconds, so a restart faster than a glance is still seen.
  await expect(page.getByTestId('store-banner')).toContainText('The store restarted');
  await expect(page.getByTestId('store-banner')).toHaveCount(0, { timeout: 15_000 });
  await expect(list.getByText('Draft 1')).toBeVisible();
  await page.getByRole('region', { name: 'Drafts' }).getByRole('button', { name: 'New' }).click();
  await expect(list.getByText('Draft 2')).toBeVisible();

  // And it still works: the listings screen reads its rows from the new worker.
  await page.goto(`${server.url}#/listings`);
  await expect(page.getByRole('grid', { name: 'Listings' })).toBeVisible();
  await page.screenshot({ path: join(DIR, '3-after.png'), fullPage: true });
  expect(errors).toEqual([]);
});
