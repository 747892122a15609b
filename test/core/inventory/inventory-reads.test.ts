import { describe, expect, it } from 'vitest';
import { DEFAULT_INVENTORY_TIMING } from '../../../src-main/core/inventory/inventory-service.ts';
import { readPragma } from '../../../src-main/core/store/db.ts';
import { inventoryFixture, names } from './fixture.ts';

/**
 * Reading the accounts' inventories from Steam (the simulator's copy of its
 * endpoint) into the store: every page, every account, each item named as
 * every other screen names its SKU; Steam's 429s waited out as Steam asks
 * (or, without Retry-After, longer each time); a private, malformed or
 * unreachable answer a sentence, with what was read before kept.
 */

const open = inventoryFixture();

describe('inventory reads', () => {
  it('reads every account page by page into the store, each item named by its SKU as the other screens name it', async () => {
    const f = await open();
    f.inventory.reads.refresh();
    const end = await f.settled();
    expect(end.map((s) => s.phase)).toEqual(['done', 'done', 'done', 'done']);
    for (const account of f.accounts) {
      const owned = f.sandbox.admin.inventory(account);
      const state = end.find((s) => s.account === account);
      expect(state?.items).toBe(owned.length);
      expect(state?.readAt).toBeGreaterThan(0);
      const page = f.inventory.queries.page({ account }, null, 0, 5_000);
      expect(page.total).toBe(owned.length);
      const sku = new Map(owned.map((a) => [a.asset_id, a.sku]));
      for (const row of page.rows) {
        expect(row.sku).toBe(sku.get(row.key));
        expect(row.item.name).toBe(names.name(row.sku));
      }
    }
    // The main account's 2,500 items took two pages of 2,000; each linked one's, one.
    const requests = f.sandbox.log.inventoryRequests;
    expect(requests.filter((r) => r.account === f.sandbox.accounts.main).map((r) => r.startAssetId === null)).toEqual([true, false]);
    expect(requests.every((r) => r.count === 2_000 && r.status === 200)).toBe(true);
    // Pages of a read under way are written without waiting for the disk; every other write still waits (FULL).
    expect(readPragma(f.t.store, 'synchronous')).toBe(2);
    // One request at a time, a gap between them.
    const gaps = requests.slice(1).map((r, i) => r.at - (requests[i]?.at ?? 0));
    expect(gaps.every((g) => g >= DEFAULT_INVENTORY_TIMING.gapMs)).toBe(true);
  });

  it('waits exactly as long as a 429 with Retry-After asks, then goes on from the page it was on', async () => {
    const f = await open();
    f.sandbox.faults.set({ inventory429: { count: 1, retryAfterSec: 120 } });
    f.inventory.reads.refresh([f.sandbox.accounts.main]);
    const [main] = await f.settled();
    expect(main?.phase).toBe('done');
    const [limited, next] = f.sandbox.log.inventoryRequests;
    expect(limited?.status).toBe(429);
    expect((next?.at ?? 0) - (limited?.at ?? 0)).toBe(120_000);
    expect(next?.startAssetId).toBeNull();
    const waiting = f.states.flat().find((s) => s.phase === 'waiting' && s.problem?.kind === 'rate_limited');
    expect(waiting?.nextAt).toBe((limited?.at ?? 0) + 120_000);
    expect(waiting?.problem?.message).toMatch(/Steam is limiting .*429.*nothing else waits/);
  });

  it('backs off exponentially on 429s without Retry-After, and a page already read is not read again', async () => {
    const f = await open({ timing: { firstBackoffMs: 30_000, maxBackoffMs: 15 * 60_000 } });
    f.inventory.reads.refresh([f.sandbox.accounts.main]);
    // The first page goes through, then Steam limits three times in a row.
    await new Promise<void>((resolve) => {
      const off = f.inventory.reads.on('state', (s) => {
        if ((s[0]?.progress?.read ?? 0) > 0) {
          f.sandbox.faults.set({ inventory429: { count: 3 } });
          off();
          resolve();
        }
      });
    });
    await f.settled();
    const requests = f.sandbox.log.inventoryRequests;
    expect(requests.map((r) => r.status)).toEqual([200, 429, 429, 429, 200]);
    const waits = requests.slice(2).map((r, i) => r.at - (requests[i + 1]?.at ?? 0));
    // 30 s, 60 s, 120 s, each within the ±25 % jitter.
    [30_000, 60_000, 120_000].forEach((base, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(base * 0.75);
      expect(waits[i]).toBeLessThanOrEqual(base * 1.25);
    });
    expect(new Set(requests.slice(1).map((r) => r.startAssetId)).size).toBe(1);
    expect(requests[1]?.startAssetId).not.toBeNull();
    expect(f.inventory.reads.state()[0]).toMatchObject({ phase: 'done', items: 2_500, problem: null });
  });

  it('says a private inventory in a sentence instead of an empty list, and keeps what was read before', async () => {
    const f = await open();
    const [storage, keys] = f.sandbox.accounts.linked;
    f.inventory.reads.refresh([storage ?? '']);
    await f.settled();
    f.sandbox.faults.set({ inventoryPrivate: { accounts: [storage ?? '', keys ?? ''] } });
    f.clock.advance(DEFAULT_INVENTORY_TIMING.minIntervalMs);
    f.inventory.reads.refresh([storage ?? '', keys ?? '']);
    const end = await f.settled();
    const before = end.find((s) => s.account === storage);
    const never = end.find((s) => s.account === keys);
    expect(before).toMatchObject({ phase: 'failed', items: f.sandbox.admin.inventory(storage).length, problem: { kind: 'private' } });
    expect(before?.readAt).not.toBeNull();
    expect(never).toMatchObject({ phase: 'failed', items: 0, readAt: null, problem: { kind: 'private' } });
    expect(never?.problem?.message).toMatch(/private.*Public.*Refresh/);
    // The sentence is kept in the store: a restart still says it.
    expect(f.inventory.reads.repo.read(keys ?? '')?.problem_kind).toBe('private');
  });

  for (const kind of ['invalid_json', 'missing_field', 'wrong_type'] as const) {
    it(`ends on a malformed answer (${kind}) with a sentence naming what is wrong, keeping the copy read before`, async () => {
      const f = await open();
      const main = f.sandbox.accounts.main;
      f.inventory.reads.refresh([main]);
      await f.settled();
      const before = f.inventory.queries.page({ account: main }, null, 0, 5_000).rows.map((r) => r.key);
      f.sandbox.faults.set({ inventoryMalformed: { count: 1, kind } });
      f.clock.advance(DEFAULT_INVENTORY_TIMING.minIntervalMs);
      f.inventory.reads.refresh([main]);
      const [state] = await f.settled();
      expect(state?.phase).toBe('failed');
      expect(state?.problem?.kind).toBe('unreadable');
      const field = { invalid_json: /not JSON/, missing_field: /assets\.0\.classid/, wrong_type: /total_inventory_count/ }[kind];
      expect(state?.problem?.message).toMatch(field);
      expect(f.inventory.queries.page({ account: main }, null, 0, 5_000).rows.map((r) => r.key)).toEqual(before);
      // Nothing of the cut read is left behind.
      expect(f.t.store.db.prepare('SELECT count(*) AS n FROM inventory_items').get()).toEqual({ n: before.length });
    });
  }

  it('tries an unreachable Steam again a few times, then says so', async () => {
    const f = await open();
    f.sandbox.faults.set({ inventoryServerError: { status: 503 } });
    f.inventory.reads.refresh([f.sandbox.accounts.main]);
    const [state] = await f.settled();
    expect(f.sandbox.log.inventoryRequests.map((r) => r.status)).toEqual([503, 503, 503, 503]);
    expect(state).toMatchObject({ phase: 'failed', problem: { kind: 'unreachable' } });
    expect(state?.problem?.message).toMatch(/could not be reached .*503/);
  });

  it('reads an account again at most every few minutes: a Refresh sooner waits for its time', async () => {
    const f = await open();
    const main = f.sandbox.accounts.main;
    f.inventory.reads.refresh([main]);
    const [first] = await f.settled();
    const readAt = first?.readAt ?? 0;
    const [asked] = f.inventory.reads.refresh([main]);
    expect(asked).toMatchObject({ phase: 'waiting', nextAt: readAt + DEFAULT_INVENTORY_TIMING.minIntervalMs });
    await f.settled();
    const starts = f.sandbox.log.inventoryRequests.filter((r) => r.startAssetId === null).map((r) => r.at);
    expect(starts.length).toBe(2);
    expect((starts[1] ?? 0) - readAt).toBeGreaterThanOrEqual(DEFAULT_INVENTORY_TIMING.minIntervalMs);
    // Asking twice is one read.
    f.inventory.reads.refresh([main]);
    f.inventory.reads.refresh([main]);
    await f.settled();
    expect(f.sandbox.log.inventoryRequests.filter((r) => r.startAssetId === null).length).toBe(3);
  });

  it('reads by itself only what was never read or has grown old', async () => {
    const f = await open();
    f.inventory.reads.ensureFresh();
    await f.settled();
    const count = f.sandbox.log.inventoryRequests.length;
    f.inventory.reads.ensureFresh();
    await f.settled();
    expect(f.sandbox.log.inventoryRequests.length).toBe(count);
    f.clock.advance(DEFAULT_INVENTORY_TIMING.staleMs);
    f.inventory.reads.ensureFresh();
    await f.settled();
    expect(f.sandbox.log.inventoryRequests.length).toBe(2 * count);
  });
});
