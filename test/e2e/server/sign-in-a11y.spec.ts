import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axe } from '../harness.ts';
import { startServe, type ServeProcess } from './serve-process.ts';
import { TEST_PASSWORD } from './server-client.ts';

/**
 * The server's own pages, as the a11y spec checks the desk's screens: axe
 * finds no serious or critical violation on the setup and sign-in pages, in
 * light and dark, with and without the red warning; and both work from the
 * keyboard alone, the focus visible where it lands.
 */
const dir = mkdtempSync(join(tmpdir(), 'desk-serve-a11y-'));
let server: ServeProcess;
test.beforeAll(async () => {
  server = await startServe({ profileDir: dir, args: ['--host', '0.0.0.0', '--insecure-remote'], testConfig: { sandbox: { seed: 3, inventorySize: 100 } } });
});
test.afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serious(page: Page): Promise<string[]> {
  const { violations } = await axe(page).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

/** The focused element's outline: the focus ring is drawn. */
const focusRing = (page: Page) => page.evaluate(() => {
  const g = globalThis as unknown as { document: { activeElement: unknown }; getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } };
  const style = g.getComputedStyle(g.document.activeElement);
  return `${style.outlineStyle} ${style.outlineWidth}`;
});

test('the setup and sign-in pages pass axe in light and dark, and work from the keyboard', async ({ browser }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1024, height: 700 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/setup#not-yet`);
    expect(await serious(page), `setup, ${colorScheme}`).toEqual([]);
    await page.goto(`${server.url}/login`);
    expect(await serious(page), `login before a password, ${colorScheme}`).toEqual([]);
    await context.close();
  }

  // The setup from the keyboard: the first field has the focus, Tab goes field to field to the button, Enter sends.
  const context = await browser.newContext({ viewport: { width: 1024, height: 700 } });
  const page = await context.newPage();
  await page.goto(server.setupLink() as string);
  await expect(page.getByLabel('New password')).toBeFocused();
  expect(await focusRing(page)).toBe('solid 2px');
  await page.keyboard.type(TEST_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('The same password again')).toBeFocused();
  await page.keyboard.type(TEST_PASSWORD);
  await page.keyboard.press('Tab');
  const submit = page.getByRole('button', { name: 'Set the password and sign in' });
  await expect(submit).toBeFocused();
  expect(await focusRing(page)).toBe('solid 2px');
  await page.keyboard.press('Enter');
  await page.locator('nav[aria-label=Screens]').waitFor();
  await context.close();

  for (const colorScheme of ['light', 'dark'] as const) {
    const signIn = await browser.newContext({ colorScheme });
    const login = await signIn.newPage();
    await login.goto(`${server.url}/login`);
    expect(await serious(login), `login, ${colorScheme}`).toEqual([]);
    // A wrong password is said where a screen reader hears it.
    await login.keyboard.type('not the password');
    await login.keyboard.press('Enter');
    await expect(login.getByRole('status')).toHaveText('That password is not right.');
    expect(await serious(login), `login with its error, ${colorScheme}`).toEqual([]);
    await signIn.close();
  }
});
