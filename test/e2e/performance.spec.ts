import { expect, test, type Page } from '@playwright/test';
import { startTestDesk } from './desk-fixture.ts';
import { openDesk, serveRenderer } from './harness.ts';

/**
 * The Listings screen on a 50,000-listing ledger. Figures are printed, not
 * asserted with tight timing (the machine is shared); the goal is under
 * 100 ms per interaction after load. Scrolling is checked for blank rows:
 * wherever the table is scrolled, rows fill the viewport.
 */

const ROWS = 50_000;

/** What a measured interaction does in the page. */
type Action =
  | { kind: 'input'; selector: string; value: string }
  | { kind: 'selectAll'; selector: string }
  | { kind: 'scroll'; selector: string; top: number }
  | { kind: 'click'; selector: string };

/** The little of the DOM these page functions touch (the Node tsconfig has no DOM types). */
interface PageEl {
  value: string;
  textContent: string | null;
  click(): void;
  scrollTop: number;
  focus(): void;
  dispatchEvent(event: unknown): boolean;
  getBoundingClientRect(): { top: number; bottom: number; height: number };
  querySelectorAll(selector: string): ArrayLike<PageEl>;
  querySelector(selector: string): PageEl | null;
}
interface PageGlobals {
  document: { querySelector(selector: string): PageEl | null; body: { textContent: string | null } };
  requestAnimationFrame(callback: () => void): void;
  Event: new (type: string, init?: object) => unknown;
  KeyboardEvent: new (type: string, init?: object) => unknown;
  performance: { now(): number };
}

/** Runs the action in the page and returns the milliseconds until the next frame has painted. */
function timed(page: Page, action: Action): Promise<number> {
  return page.evaluate(async (a) => {
    const g = globalThis as unknown as PageGlobals;
    const el = g.document.querySelector(a.selector);
    if (!el) throw new Error(`${a.selector} is not on the page`);
    const t0 = g.performance.now();
    if (a.kind === 'input') {
      el.value = a.value;
      el.dispatchEvent(new g.Event('input', { bubbles: true }));
    } else if (a.kind === 'selectAll') {
      el.focus();
      el.dispatchEvent(new g.KeyboardEvent('keydown', { key: 'a', ctrlKey: true, bubbles: true }));
    } else if (a.kind === 'click') {
      el.click();
    } else {
      el.scrollTop = a.top;
    }
    await new Promise<void>((r) => g.requestAnimationFrame(() => setTimeout(r, 0)));
    return g.performance.now() - t0;
  }, action);
}

/**
 * Clicks the button and returns the milliseconds until a row of the grid
 * shows a pending value, and until the page says `confirmed`, each in a
 * frame that has painted.
 */
function untilPending(page: Page, button: string, grid: string, confirmed: string): Promise<{ pending: number; confirmed: number }> {
  return page.evaluate(async ({ button: b, grid: g0, confirmed: said }) => {
    const g = globalThis as unknown as PageGlobals;
    const el = g.document.querySelector(b);
    if (!el) throw new Error(`${b} is not on the page`);
    const frame = () => new Promise<void>((r) => g.requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = g.performance.now();
    el.click();
    const until = async (seen: () => boolean, what: string) => {
      while (!seen()) {
        if (g.performance.now() - t0 > 60_000) throw new Error(`no ${what} after 60 s`);
        await frame();
      }
      await frame();
      return g.performance.now() - t0;
    };
    const pending = await until(() => g.document.querySelector(`${g0} [role=row][data-key] .pending`) !== null, 'pending value');
    return { pending, confirmed: await until(() => (g.document.body.textContent ?? '').includes(said), said) };
  }, { button, grid, confirmed });
}

/**
 * Clicks the button and returns the milliseconds until the first pending
 * value of the grid reads differently, and until the page says `confirmed`,
 * each in a frame that has painted: for an edit over rows that already show
 * pending values.
 */
function untilRepriced(page: Page, button: string, grid: string, confirmed: string): Promise<{ pending: number; confirmed: number }> {
  return page.evaluate(async ({ button: b, grid: g0, confirmed: said }) => {
    const g = globalThis as unknown as PageGlobals;
    const el = g.document.querySelector(b);
    if (!el) throw new Error(`${b} is not on the page`);
    const shown = () => g.document.querySelector(`${g0} [role=row][data-key] .pending`)?.textContent ?? '';
    const before = shown();
    const frame = () => new Promise<void>((r) => g.requestAnimationFrame(() => setTimeout(r, 0)));
    const t0 = g.performance.now();
    el.click();
    const until = async (seen: () => boolean, what: string) => {
      while (!seen()) {
        if (g.performance.now() - t0 > 60_000) throw new Error(`no ${what} after 60 s`);
        await frame();
      }
      await frame();
      return g.performance.now() - t0;
    };
    const pending = await until(() => shown() !== before, 'new pending value');
    return { pending, confirmed: await until(() => (g.document.body.textContent ?? '').includes(said), said) };
  }, { button, grid, confirmed });
}

/** Whether rendered rows cover the scroller's visible height at its current scroll position. */
function viewportFilled(page: Page): Promise<{ ok: boolean; top: number }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const scroller = g.document.querySelector('[aria-label=Listings] .vt-scroller');
    if (!scroller) return { ok: false, top: -1 };
    const box = scroller.getBoundingClientRect();
    const rows = Array.from(scroller.querySelectorAll('[role=row]'), (r) => r.getBoundingClientRect());
    const covers = (y: number) => rows.some((r) => r.top <= y && r.bottom >= y);
    return { ok: [box.top + 1, box.top + box.height / 2, box.bottom - 2].every(covers), top: scroller.scrollTop };
  });
}

test('Listings stays quick on a 50,000-listing ledger', async ({ page }) => {
  test.setTimeout(300_000);
  const desk = await startTestDesk({ ledgerSize: ROWS, timeScale: 60 });
  const server = await serveRenderer();
  try {
    // What the bridge itself costs (router, validation, serialisation), apart from the renderer.
    const b0 = Date.now();
    const listed = await desk.router.invoke('listings:list', {});
    expect(listed.ok).toBe(true);
    console.log(`listings:list of ${ROWS.toLocaleString()} rows through the router alone: ${Date.now() - b0} ms`);

    const t0 = Date.now();
    await openDesk(page, desk.router, server, 'listings');
    const grid = page.getByRole('grid', { name: 'Listings' });
    await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1), { timeout: 120_000 });
    await expect(grid.locator('[role=row][data-key]').first()).toBeVisible();
    const firstRender = Date.now() - t0;
    console.log(`first render (page load + ${ROWS.toLocaleString()} rows over the bridge): ${firstRender} ms`);
    const rendered = await grid.locator('[role=row][data-key]').count();
    console.log(`rows in the DOM: ${rendered} of ${ROWS.toLocaleString()}`);
    expect(rendered).toBeLessThan(100);

    // The screen itself, with the rows already in the store: leave and come back.
    await page.keyboard.press('Alt+1');
    await expect(page.locator('main h1')).toHaveText('Overview');
    const s0 = Date.now();
    await page.keyboard.press('Alt+2');
    await expect(grid.locator('[role=row][data-key]').first()).toBeVisible();
    console.log(`opening Listings with ${ROWS.toLocaleString()} rows in the store: ${Date.now() - s0} ms`);

    const typing: number[] = [];
    for (const value of ['5', '50', '502', '5021', '502', '']) {
      typing.push(await timed(page, { kind: 'input', selector: '[data-shortcut=search]', value }));
    }
    console.log(`typing a filter, per keystroke: ${typing.map((t) => t.toFixed(1)).join(', ')} ms (max ${Math.max(...typing).toFixed(1)})`);
    await expect(page.getByText(`${ROWS.toLocaleString()} of ${ROWS.toLocaleString()}`)).toBeVisible();

    const selectAll = await timed(page, { kind: 'selectAll', selector: '[role=grid][aria-label=Listings]' });
    await expect(page.getByText(`${ROWS.toLocaleString()} selected`)).toBeVisible();
    console.log(`select all ${ROWS.toLocaleString()}: ${selectAll.toFixed(1)} ms`);

    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    const preview = await timed(page, { kind: 'input', selector: 'input[aria-label=Percent]', value: '90' });
    console.log(`bulk formula preview over ${ROWS.toLocaleString()} rows: ${preview.toFixed(1)} ms`);
    const started = Date.now();
    const shown = await untilPending(page, '[aria-label="Bulk edit"] button[type=submit]', '[role=grid][aria-label=Listings]', 'listings changed in the draft.');
    console.log(`click → pending values visible in the table (${ROWS.toLocaleString()} rows): ${shown.pending.toFixed(1)} ms`);
    console.log(`click → "N listings changed in the draft." shown (drafts:bulk replied): ${shown.confirmed.toFixed(1)} ms`);
    // Rows whose price would not change are not counted as changed.
    const confirmation = page.getByText(/^[\d,]+ listings changed in the draft\.$/);
    await expect(confirmation).toBeVisible({ timeout: 120_000 });
    await expect(grid.locator('[role=row][data-key] .pending').first()).toBeVisible({ timeout: 60_000 });
    console.log(`applying the bulk formula to ${ROWS.toLocaleString()} rows (drafts:bulk + confirmation + pending, as the test runner sees it): ${Date.now() - started} ms`);
    // The draft is read back behind the shown values; its count of pending changes says when it landed.
    const changed = (await confirmation.textContent())?.split(' ')[0] ?? '';
    await expect(page.getByText(`${changed} pending`)).toBeVisible({ timeout: 120_000 });
    console.log(`  draft read back behind it (drafts:changes + overlay, ${changed} pending): ${Date.now() - started} ms after the click`);
    const draftId = await page.evaluate(() => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('desk.currentDraft'));
    const c0 = Date.now();
    const reloaded = await desk.router.invoke('drafts:changes', { draftId });
    const count = reloaded.ok ? (reloaded.value as unknown[]).length : 0;
    console.log(`  of which drafts:changes (${count.toLocaleString()} changes) through the router alone: ${Date.now() - c0} ms`);
    const ids = listed.ok ? (listed.value as Array<{ asset_id: string }>).map((l) => l.asset_id) : [];
    const k0 = Date.now();
    await desk.router.invoke('drafts:bulk', { draftId, target: 'listings', selection: { ids }, op: { op: 'addCents', cents: 1 } });
    console.log(`  and a second drafts:bulk over ${ids.length.toLocaleString()} IDs through the router alone: ${Date.now() - k0} ms`);

    const frames: number[] = [];
    for (const fraction of [0.001, 0.25, 0.5, 0.75, 0.999, 0.3, 0.6]) {
      frames.push(await timed(page, { kind: 'scroll', selector: '[aria-label=Listings] .vt-scroller', top: Math.floor(fraction * ROWS * 28) }));
      const filled = await viewportFilled(page);
      expect(filled.ok, `blank rows at scrollTop ${filled.top}`).toBe(true);
    }
    console.log(`scroll jumps, per frame: ${frames.map((t) => t.toFixed(1)).join(', ')} ms; viewport filled at every stop`);

    // The same over a sorted table, into the draft that now exists: rows rebuilt for new values keep their order.
    const sortClicks = [
      await timed(page, { kind: 'click', selector: '[aria-label=Listings] .vt-head > :nth-child(4) button' }),
    ];
    await expect(page.getByRole('columnheader', { name: /Price/ })).toHaveAttribute('aria-sort', 'ascending');
    sortClicks.push(await timed(page, { kind: 'click', selector: '[aria-label=Listings] .vt-head > :nth-child(4) button' }));
    await expect(page.getByRole('columnheader', { name: /Price/ })).toHaveAttribute('aria-sort', 'descending');
    console.log(`sorting ${ROWS.toLocaleString()} rows by price, up then down: ${sortClicks.map((t) => t.toFixed(1)).join(', ')} ms`);
    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    await page.getByLabel('Operation').selectOption('raise');
    await page.getByLabel('Amount').fill('1.00');
    const again = await untilRepriced(page, '[aria-label="Bulk edit"] button[type=submit]', '[role=grid][aria-label=Listings]', `${ROWS.toLocaleString()} listings changed in the draft.`);
    console.log(`sorted by price, draft existing: click → new pending values visible: ${again.pending.toFixed(1)} ms`);
    console.log(`sorted by price, draft existing: click → "N listings changed in the draft." shown: ${again.confirmed.toFixed(1)} ms`);
  } finally {
    await server.close();
    await desk.close();
  }
});
