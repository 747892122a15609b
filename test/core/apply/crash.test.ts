import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { listUnknownOutcomes } from '../../../src-main/core/apply/recovery.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { createRandom } from '../../../src-main/sandbox/prng.ts';

/**
 * Real processes, real kills: a child applies a 5,000-change draft against
 * the sandbox (which lives here, in the parent) and is killed with SIGKILL at
 * seeded random moments; each next start recovers the journal and resumes.
 * Across all runs: no listing created twice for one asset, no change lost,
 * every change applied or shown as an unknown outcome.
 */
const SCALE = 25; // a service minute lasts 2.4 s
const KILLS = 6;
const SEED = 20_251_122;
const CHILD = fileURLToPath(new URL('./apply-child.ts', import.meta.url));

let sandbox: Sandbox | undefined;
const dir = mkdtempSync(join(tmpdir(), 'desk-crash-'));
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/** Runs one child; with `killAfterMs`, kills it that long after it has recovered and started applying. */
function runChild(env: Record<string, string>, killAfterMs: number | null): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let err = '';
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (d: Buffer) => {
      lines.push(...d.toString().split('\n').filter(Boolean));
      if (killAfterMs !== null && timer === null && lines.some((l) => l.includes('"start"'))) {
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code !== 0 && signal === null) reject(new Error(`child failed (${code}): ${err}`));
      else resolve({ code, signal, lines });
    });
  });
}

describe('apply survives SIGKILL at random moments', () => {
  it('creates nothing twice, loses nothing, and shows every unsettled change as an unknown outcome', async () => {
    const started = performance.now();
    const origin = Date.now();
    const clock = scaledClock(SCALE, origin);
    sandbox = await startSandbox({ clock, seed: 7, tradeSchedule: false, inventorySize: 6_000 });
    const main = sandbox.accounts.main;
    const linked = sandbox.accounts.linked[0] as string;
    sandbox.admin.setBalance(1_000_000_000);

    // The profile: accounts, 2,400 listings in the ledger, and the 5,000-change draft.
    const path = join(dir, 'profile.sqlite');
    let store = openStore(path, { clock });
    let repos = createRepos(store);
    repos.accounts.upsert({ account_id: main, kind: 'main' });
    repos.accounts.upsert({ account_id: linked, kind: 'linked' });
    const seededListings = sandbox.admin.seedListings(2_400);
    repos.listings.upsertMany(seededListings.map((l) => ({
      asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, account: main,
    })));
    const free = sandbox.admin.inventory().slice(0, 1_900);
    const freeLinked = sandbox.admin.inventory(linked).slice(0, 200);
    const edits = seededListings.slice(0, 1_600);
    const deletes = seededListings.slice(1_600, 2_300);
    const relists = seededListings.slice(2_300, 2_400);
    const drafts = createDraftService({ store, repos });
    const draft = drafts.create('crash test');
    const added = drafts.addChanges(draft.id, [
      ...edits.map((l) => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 11 })),
      ...deletes.map((l) => ({ kind: 'listing.delete', asset_id: l.asset_id })),
      ...relists.flatMap((l) => [
        { kind: 'listing.delete', asset_id: l.asset_id },
        { kind: 'listing.create', asset_id: l.asset_id, price: 4_321, promoted: 1 },
      ]),
      ...free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 1_234, promoted: 0, game: a.game })),
      ...freeLinked.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 2_345, promoted: 0, game: a.game, account: linked })),
      ...Array.from({ length: 200 }, (_, i) => ({ kind: 'buyOrder.create', sku: `${9_000 + i};6`, price: 50 + i, quantity: 2 })),
      ...Array.from({ length: 200 }, (_, i) => ({ kind: 'buyOrder.create', sku: `${9_500 + i};11`, price: 70, quantity: 1, account: linked })),
    ]);
    expect(added).toEqual({ added: 5_000, errors: [] });
    drafts.dispose();
    store.close();

    // Writes take a while (8 s of service time) so kills land on requests in flight too.
    const writes = ['create_listing', 'edit_listing', 'delete_listing', 'create_buy_order'] as const;
    sandbox.faults.set({ delayMs: { ms: 8_000, endpoints: writes } });

    // Start, kill, start again…; then one last start that runs to the end.
    const env = {
      DESK_DB: path, DESK_URL: sandbox.url, DESK_KEY: sandbox.apiKey, DESK_DRAFT: draft.id,
      DESK_CLOCK_ORIGIN: String(origin), DESK_CLOCK_SCALE: String(SCALE),
    };
    const random = createRandom(SEED);
    const runs: ChildRun[] = [];
    for (let i = 0; i < KILLS; i++) runs.push(await runChild(env, 100 + Math.floor(random() * 1_300)));
    runs.push(await runChild(env, null));
    const last = runs.at(-1);
    expect(last?.code).toBe(0);
    const killed = runs.filter((r) => r.signal === 'SIGKILL').length;

    // What the profile says now.
    store = openStore(path, { clock });
    repos = createRepos(store);
    const entries = repos.drafts.entries(draft.id);
    const byStatus = new Map<string, number>();
    for (const e of entries) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
    const unknownBatches = listUnknownOutcomes(repos);
    const shownUnknown = new Set(unknownBatches.flatMap((u) => u.items.map((x) => x.target)));
    // A relist whose delete has an unknown outcome is held back, with that reason.
    const held = entries.filter((e) => e.status === 'failed' && /unknown outcome/.test(e.error?.message ?? ''));

    // What the service says.
    const live = new Map(sandbox.admin.listings().filter((l) => l.state === 'active' || l.state === 'inactive').map((l) => [l.asset_id, l]));
    const orders = new Map(sandbox.admin.buyOrders().map((o) => [`${o.account}|${o.sku}`, o.quantity]));
    const mismatches: string[] = [];
    for (const e of entries.filter((x) => x.status === 'done')) {
      const c = e.change;
      if (c.kind === 'listing.create') {
        const l = live.get(c.asset_id);
        const row = repos.listings.get(c.asset_id);
        if (!l || l.price !== c.price || row?.listing_id !== l.listing_id) mismatches.push(e.target);
      } else if (c.kind === 'listing.edit') {
        if (live.get(c.asset_id)?.price !== c.price) mismatches.push(e.target);
      } else if (c.kind === 'listing.delete') {
        const relisted = entries.some((x) => x.target === `L:${c.asset_id}` && x.status === 'done');
        if (live.has(c.asset_id) && !relisted) mismatches.push(e.target);
      } else if (c.kind === 'buyOrder.create') {
        // The ledger's quantity is the service's, or a range that holds it.
        const stored = orders.get(`${c.account}|${c.sku}`);
        const row = repos.buyOrders.get(c.sku);
        const low = row?.quantity_may_be_cut ? row.quantity_at_least ?? 1 : row?.quantity;
        if (stored === undefined || !row || stored > row.quantity || stored < (low ?? 0)) mismatches.push(e.target);
      }
    }

    const counts = {
      changes: entries.length,
      applied: byStatus.get('done') ?? 0,
      unknownOutcome: byStatus.get('unknown') ?? 0,
      unknownBatches: unknownBatches.length,
      heldBehindUnknownDelete: held.length,
      otherFailed: (byStatus.get('failed') ?? 0) - held.length,
      lost: entries.length - (byStatus.get('done') ?? 0) - (byStatus.get('unknown') ?? 0) - held.length,
      appliedButNotOnService: mismatches.length,
      duplicateCreates: sandbox.log.counters.duplicateCreates,
      duplicateBuyOrderCreates: sandbox.log.counters.duplicateBuyOrderCreates,
      starts: runs.length,
      killedWithSigkill: killed,
      requests: sandbox.log.requests.length,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    console.log(`crash test: ${JSON.stringify(counts)}`);

    expect(counts.changes).toBe(5_000);
    // Most starts are killed mid-apply; a late one may finish first, which is fine.
    expect(killed).toBeGreaterThanOrEqual(3);
    expect(counts.duplicateCreates).toBe(0);
    expect(counts.duplicateBuyOrderCreates).toBe(0);
    expect(counts.lost).toBe(0);
    expect(counts.otherFailed).toBe(0);
    expect(mismatches).toEqual([]);
    // Every unknown change is shown, in a batch with its choices.
    const unknownTargets = entries.filter((e) => e.status === 'unknown').map((e) => e.target);
    expect(unknownTargets.every((t) => shownUnknown.has(t))).toBe(true);
    expect(unknownBatches.every((u) => u.choices.length > 0)).toBe(true);
    // The key never reached the profile.
    store.db.exec('PRAGMA wal_checkpoint(FULL)');
    expect(readFileSync(path).includes(Buffer.from(sandbox.apiKey))).toBe(false);
    store.close();
  }, 120_000);
});
