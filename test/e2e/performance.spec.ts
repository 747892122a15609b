import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Router } from '../../src-main/ipc/router.ts';
import { startTestDesk } from './desk-fixture.ts';
import { bindDesk, bridgeTraffic, serveRenderer, type StaticServer } from './harness.ts';

/**
 * The Listings screen on a 50,000-listing ledger with a 47,000-change draft,
 * in Chromium, against the real router, core and SQLite. Figures are
 * measured in the page (from the action to the painted frame that shows
 * its result), printed, and written to test-results/perf.json; they are not
 * asserted with timings (the machine is shared). The desk runs in its data
 * worker as the app runs it, every call crossing main's connection, in real
 * time, at rest when the window opens. Goals: first render ≤ 250
 * ms, every interaction ≤ 150 ms, no reply or event over 1 MB. After the
 * interactions the window is closed to the tray (its renderer ends, as the
 * app destroys it) and opened again on the same running desk, a fresh page:
 * `reopenFirstRowsMs` (goal ≤ 250 ms). Then the same profile is opened
 * afresh, as at the app's start, and a window loads Listings as soon as the
 * desk is up: `launchFirstRenderMs` (goal ≤ 400 ms).
 */

const ROWS = 50_000;
const DRAFT_CHANGES = 47_000;
const GRID = '[role=grid][aria-label=Listings]';

/** The little of the DOM these page functions touch (the Node tsconfig has no DOM types). */
interface PageEl {
  value: string;
  textContent: string | null;
  scrollTop: number;
  click(): void;
  focus(): void;
  dispatchEvent(event: unknown): boolean;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { top: number; bottom: number; height: number };
  querySelectorAll(selector: string): ArrayLike<PageEl>;
  querySelector(selector: string): PageEl | null;
}
interface PageGlobals {
  document: { querySelector(selector: string): PageEl | null; body: PageEl };
  requestAnimationFrame(callback: () => void): void;
  Event: new (type: string, init?: object) => unknown;
  KeyboardEvent: new (type: string, init?: object) => unknown;
  performance: { now(): number };
}

type Action =
  | { kind: 'input'; selector: string; value: string }
  | { kind: 'key'; selector: string; key: string; ctrlKey?: boolean }
  | { kind: 'click'; selector: string }
  | { kind: 'scroll'; selector: string; top: number };

type Until =
  | { kind: 'text'; selector: string; includes: string }
  | { kind: 'firstRowChanged'; before: string }
  | { kind: 'firstPendingChanged'; before: string }
  | { kind: 'viewportFilled' };

/**
 * Runs the action in the page, then waits frame by frame until each
 * condition holds; returns the ms from the action to the painted frame
 * that first showed each.
 */
function measure(page: Page, action: Action, untils: Until[]): Promise<number[]> {
  return page.evaluate(async ({ action: a, untils: us, grid }) => {
    const g = globalThis as unknown as PageGlobals;
    const el = g.document.querySelector(a.selector);
    if (!el) throw new Error(`${a.selector} is not on the page`);
    const frame = () => new Promise<void>((r) => g.requestAnimationFrame(() => setTimeout(r, 0)));
    const firstRow = () => g.document.querySelector(`${grid} [role=row][data-key]`)?.getAttribute('data-key') ?? '';
    const firstPending = () => g.document.querySelector(`${grid} [role=row][data-key] .pending`)?.textContent ?? '';
    const filled = () => {
      const scroller = g.document.querySelector(`${grid} .vt-scroller`);
      if (!scroller) return false;
      const box = scroller.getBoundingClientRect();
      const rows = Array.from(scroller.querySelectorAll('[role=row][data-key]'), (r) => r.getBoundingClientRect());
      return [box.top + 1, box.top + box.height / 2, box.top + box.height - 2].every((y) => rows.some((r) => r.top <= y && r.bottom >= y));
    };
    const holds = (u: (typeof us)[number]) => {
      switch (u.kind) {
        case 'text': return (g.document.querySelector(u.selector)?.textContent ?? '').includes(u.includes);
        case 'firstRowChanged': return firstRow() !== '' && firstRow() !== u.before;
        case 'firstPendingChanged': return firstPending() !== '' && firstPending() !== u.before;
        case 'viewportFilled': return filled();
      }
    };
    const t0 = g.performance.now();
    if (a.kind === 'input') {
      el.value = a.value;
      el.dispatchEvent(new g.Event('input', { bubbles: true }));
    } else if (a.kind === 'key') {
      el.focus();
      el.dispatchEvent(new g.KeyboardEvent('keydown', { key: a.key, ctrlKey: a.ctrlKey ?? false, bubbles: true }));
    } else if (a.kind === 'click') {
      el.click();
    } else {
      el.scrollTop = a.top;
    }
    const out: number[] = [];
    for (const u of us) {
      while (!holds(u)) {
        if (g.performance.now() - t0 > 60_000) throw new Error(`waited 60 s for ${JSON.stringify(u)}`);
        await frame();
      }
      await frame();
      out.push(g.performance.now() - t0);
    }
    return out;
  }, { action, untils, grid: GRID });
}

const firstRowKey = (page: Page) => page.locator(`${GRID} [role=row][data-key]`).first().getAttribute('data-key');
const firstPendingText = async (page: Page) => (await page.locator(`${GRID} [role=row][data-key] .pending`).first().textContent()) ?? '';
const counts = '[data-testid=table-counts]';
const fmt = (n: number) => n.toLocaleString('en');

/**
 * Cold window opens measured for the first render; the figure is their median. Nine, not five:
 * one open alone ranged from 155 to 320 ms in one run on this shared two-core machine.
 */
const WINDOW_OPENS = 9;
/** Reopens after the trader's work, measured the same way; the figure is their median. */
const REOPENS = 5;
/** How long the desk runs with no window between a close to the tray and the reopen. */
const IN_TRAY_MS = 500;

/**
 * Opens the Listings screen in a new window, as a trader opening the desk's
 * window does: a new browser context is a new renderer process with empty
 * caches. The window exists (its blank page is up) before the desk's screen
 * is loaded into it, as Electron's BrowserWindow is created before it loads
 * the app. Returns the page and the ms from navigation start to the first
 * painted frame that showed ledger rows, in the page's own clock, seen by the
 * page itself from its first frame (a poll from here would add its own latency).
 */
async function openListings(browser: Browser, router: Router, server: StaticServer): Promise<{ page: Page; context: BrowserContext; firstRenderMs: number }> {
  const { page, context } = await blankWindow(browser);
  return { page, context, firstRenderMs: await loadListings(page, router, server) };
}

/** A new window (a new renderer process) with its blank page up and settled, as a BrowserWindow before it loads the app. */
async function blankWindow(browser: Browser): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('about:blank');
  await page.waitForTimeout(1_000);
  return { page, context };
}

/** Loads the Listings screen into the window; the ms from navigation start to the first painted frame with rows. */
async function loadListings(page: Page, router: Router, server: StaticServer): Promise<number> {
  await bindDesk(page, router, server);
  await page.addInitScript((grid) => {
    const g = globalThis as unknown as PageGlobals & { firstRowsAt?: number };
    const look = () => {
      if (g.document.querySelector(`${grid} [role=row][data-key]`)) g.requestAnimationFrame(() => void (g.firstRowsAt = g.performance.now()));
      else g.requestAnimationFrame(look);
    };
    g.requestAnimationFrame(look);
  }, GRID);
  await page.goto(`${server.url}#/listings`);
  // Waited for from the page itself: a locator here would inject Playwright's selector engine into
  // the window (10-16 ms of script on its thread) while the first rows are being drawn.
  return page.evaluate(async () => {
    const g = globalThis as unknown as PageGlobals & { firstRowsAt?: number };
    while (g.firstRowsAt === undefined) await new Promise<void>((r) => g.requestAnimationFrame(() => r()));
    return g.firstRowsAt;
  });
}

test('Listings stays quick on a 50,000-listing ledger with a 47,000-change draft', async ({ browser }) => {
  test.setTimeout(300_000);
  // Real time, as the app runs: a faster clock would make the desk's own timers (heartbeat, polls)
  // run many times more often than a trader's desk does while the window opens.
  // A profile folder of its own: the launch figure reopens it.
  const dataDir = mkdtempSync(join(tmpdir(), 'desk-perf-'));
  const desk = await startTestDesk({ ledgerSize: ROWS, dataDir });
  const server = await serveRenderer();
  let context: BrowserContext | null = null;
  try {
    // The draft the trader has been working on: 47,000 repriced listings, folded as a day-old draft would be.
    const { router } = desk;
    await router.invoke('drafts:create', { name: 'Big repricing' });
    const tail = await router.invoke('ledger:keys', { domain: 'listings', offset: DRAFT_CHANGES, limit: ROWS - DRAFT_CHANGES });
    if (!tail.ok) throw new Error(tail.error.message);
    const except = (tail.value as { keys: string[] }).keys;
    const made = await router.invoke('ledger:bulk', { domain: 'listings', selection: { filter: {}, except }, op: { op: 'addCents', cents: 10 } });
    expect(made).toMatchObject({ ok: true, value: { changed: DRAFT_CHANGES } });
    // The desk at rest, as a day-old draft is: the setup's garbage collected.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    bridgeTraffic.largestBytes = 0;

    // First render: the median of several cold window opens; every open is printed.
    const firstRendersMs: number[] = [];
    let page: Page | null = null;
    for (let i = 0; i < WINDOW_OPENS; i++) {
      await context?.close();
      const opened = await openListings(browser, router, server);
      ({ page, context } = opened);
      firstRendersMs.push(opened.firstRenderMs);
    }
    if (!page) throw new Error('no window was opened');
    const firstRenderMs = median(firstRendersMs);
    await expect(page.locator(counts)).toContainText(`${fmt(ROWS)} of ${fmt(ROWS)}`);
    await expect(page.getByRole('grid', { name: 'Listings' })).toHaveAttribute('aria-rowcount', String(ROWS + 1));
    expect(await page.locator(`${GRID} [role=row][data-key]`).count()).toBeLessThan(100);

    // Typing a filter: each keystroke is a query main answers; the counts say when its answer is on screen.
    const filterKeystrokesMs: number[] = [];
    for (const value of ['5', '50', '500', '5001', '500', '']) {
      const expected = await router.invoke('ledger:page', { domain: 'listings', filter: value === '' ? {} : { text: value }, offset: 0, limit: 1 });
      const total = expected.ok ? (expected.value as { total: number }).total : -1;
      const [ms] = await measure(page, { kind: 'input', selector: '[data-shortcut=search]', value }, [{ kind: 'text', selector: counts, includes: `${fmt(total)} of ${fmt(ROWS)}` }]);
      filterKeystrokesMs.push(ms ?? NaN);
    }

    // Select all: a filter-shaped selection, no keys.
    const [selectAllMs] = await measure(page, { kind: 'key', selector: GRID, key: 'a', ctrlKey: true }, [{ kind: 'text', selector: counts, includes: `${fmt(ROWS)} selected` }]);

    // A bulk formula over all 50,000 rows: main previews it, then stores it; the rows show the new prices.
    await page.getByRole('button', { name: 'Bulk edit…' }).click();
    await page.getByLabel('Operation').selectOption('multiply');
    await page.getByLabel('Percent').fill('90');
    await expect(page.getByTestId('bulk-preview')).toContainText(/\d+ listings change/, { timeout: 30_000 });
    const before = await firstPendingText(page);
    const [bulkVisibleMs, bulkConfirmedMs] = await measure(page, { kind: 'click', selector: 'form.bulk button[type=submit]' }, [
      { kind: 'firstPendingChanged', before },
      { kind: 'text', selector: 'body', includes: 'listings changed in the draft.' },
    ]);

    // Sorting 50,000 rows by price: main sorts; the first rows change.
    const unsortedFirst = (await firstRowKey(page)) ?? '';
    const [sortMs] = await measure(page, { kind: 'click', selector: `${GRID} .vt-head [role=columnheader]:nth-child(4) button` }, [{ kind: 'firstRowChanged', before: unsortedFirst }]);
    await expect(page.getByRole('columnheader', { name: /Price/ })).toHaveAttribute('aria-sort', 'ascending');

    // Sorting by the price after the draft: nothing indexes it, so main sorts the rows with the draft laid over them.
    // Measured cheapest-first to dearest-first, the order whose first row surely differs.
    const byDraftPrice = page.getByRole('button', { name: 'Sort by the price after the draft' });
    await byDraftPrice.click();
    await expect(byDraftPrice).toContainText('▲');
    // Measured from the cheapest-first rows on screen: the button turns before its rows arrive, and a
    // flip measured from then would time the first sort's end too.
    const cheapest = await router.invoke('ledger:page', { domain: 'listings', filter: {}, sort: { column: 'newPrice', dir: 'asc' }, offset: 0, limit: 1 });
    if (!cheapest.ok) throw new Error(cheapest.error.message);
    const cheapestAfterDraft = (cheapest.value as { rows: Array<{ key: string }> }).rows[0]?.key ?? '';
    const sorted = page;
    await expect.poll(() => firstRowKey(sorted)).toBe(cheapestAfterDraft);
    const [sortByDraftPriceMs] = await measure(page, { kind: 'click', selector: `${GRID} .vt-head [role=columnheader]:nth-child(4) button.alt` }, [{ kind: 'firstRowChanged', before: cheapestAfterDraft }]);
    await expect(byDraftPrice).toContainText('▼');

    // Scroll jumps: the viewport is filled with rows (not placeholders) at every stop.
    const scrollFramesMs: number[] = [];
    for (const fraction of [0.001, 0.25, 0.5, 0.75, 0.999, 0.3, 0.6]) {
      const [ms] = await measure(page, { kind: 'scroll', selector: `${GRID} .vt-scroller`, top: Math.floor(fraction * ROWS * 28) }, [{ kind: 'viewportFilled' }]);
      scrollFramesMs.push(ms ?? NaN);
    }

    // Reopen: the window closed to the tray (the page and its renderer process end, as the app destroys
    // the window) and opened again from the tray on the same running desk: a fresh page that asks main
    // for what it shows. The median of several; every reopen is printed.
    const reopensMs: number[] = [];
    for (let i = 0; i < REOPENS; i++) {
      await context?.close();
      await new Promise((resolve) => setTimeout(resolve, IN_TRAY_MS));
      const reopened = await openListings(browser, router, server);
      ({ page, context } = reopened);
      reopensMs.push(reopened.firstRenderMs);
    }
    await expect(page.locator(counts)).toContainText(`${fmt(ROWS)} of ${fmt(ROWS)}`);

    // Launch: the desk opened afresh on this profile, as the app starts, with the window loading the
    // Listings screen at once: its first page is a query, whatever the ledger's size.
    await context?.close();
    const launchWindow = await blankWindow(browser);
    context = launchWindow.context;
    await desk.reopen();
    const launchFirstRenderMs = await loadListings(launchWindow.page, desk.router, server);
    await expect(launchWindow.page.locator(counts)).toContainText(`${fmt(ROWS)} of ${fmt(ROWS)}`);
    // The bulk edit was stored: the reopened desk reads it back from disk.
    const reopened = await desk.ask('drafts:list');
    expect(reopened.drafts.find((d) => d.id === reopened.currentId)?.changeCount ?? 0).toBeGreaterThanOrEqual(DRAFT_CHANGES);

    const figures = {
      ledgerRows: ROWS,
      draftChanges: DRAFT_CHANGES,
      firstRenderMs: round(firstRenderMs),
      firstRendersMs: firstRendersMs.map(round),
      reopenFirstRowsMs: round(median(reopensMs)),
      reopensFirstRowsMs: reopensMs.map(round),
      launchFirstRenderMs: round(launchFirstRenderMs),
      filterKeystrokeMaxMs: round(Math.max(...filterKeystrokesMs)),
      filterKeystrokesMs: filterKeystrokesMs.map(round),
      selectAllMs: round(selectAllMs ?? NaN),
      bulkVisibleMs: round(bulkVisibleMs ?? NaN),
      bulkConfirmedMs: round(bulkConfirmedMs ?? NaN),
      sortMs: round(sortMs ?? NaN),
      sortByDraftPriceMs: round(sortByDraftPriceMs ?? NaN),
      scrollFrameMaxMs: round(Math.max(...scrollFramesMs)),
      scrollFramesMs: scrollFramesMs.map(round),
      largestIpcPayloadBytes: bridgeTraffic.largestBytes,
      largestIpcPayload: bridgeTraffic.largestWhat,
    };
    mkdirSync('test-results', { recursive: true });
    writeFileSync(join('test-results', 'perf.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`Listings, ${fmt(ROWS)} rows, ${fmt(DRAFT_CHANGES)}-change draft (ms; goals: first render and reopen ≤ 250, launch ≤ 400, interactions ≤ 150, payloads ≤ 1 MB):`);
    for (const [name, value] of Object.entries(figures)) console.log(`  ${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
    for (const n of [...filterKeystrokesMs, selectAllMs, bulkVisibleMs, bulkConfirmedMs, sortMs, sortByDraftPriceMs, ...scrollFramesMs, ...reopensMs]) expect(Number.isFinite(n)).toBe(true);
  } finally {
    await context?.close();
    await server.close();
    await desk.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
