import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src-main/core/api/endpoints.ts';
import { createJournal, QUEUE_PART } from '../../../src-main/core/apply/journal.ts';
import { applyFixture } from './support.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

describe('applying a draft against the sandbox', () => {
  it('applies creates (main and linked), edits, deletes, a relist and buy orders; the ledger matches the service', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const linked = sandbox.accounts.linked[0] as string;
    const listed = sandbox.admin.seedListings(150);
    s.adopt(listed);
    const free = sandbox.admin.inventory().slice(0, 230);
    const freeLinked = sandbox.admin.inventory(linked).slice(0, 20);
    sandbox.admin.setBalance(100_000_000);
    const { id } = s.drafts.create('mixed');
    const r = s.drafts.addChanges(id, [
      ...free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })),
      ...freeLinked.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 400, promoted: 1, account: linked })),
      ...listed.slice(0, 100).map((l): ChangeInput => ({ kind: 'listing.edit', listing_id: l.listing_id, price: l.price + 7 })),
      ...listed.slice(100, 140).map((l): ChangeInput => ({ kind: 'listing.delete', asset_id: l.asset_id })),
      // List asset of listing 140 again at another price: delete, then create.
      { kind: 'listing.delete', asset_id: listed[140]?.asset_id ?? '' },
      { kind: 'listing.create', asset_id: listed[140]?.asset_id ?? '', price: 999, promoted: 1 },
      { kind: 'buyOrder.create', sku: '5021;6', price: 180, quantity: 3 },
    ]);
    expect(r.errors).toEqual([]);
    const review = await s.drafts.review(id);
    expect(review.requestsPerEndpoint).toEqual({ create_listing: 5, edit_listing: 1, delete_listing: 1, create_buy_order: 1 });
    // Five creates fit in one minute's window of create_listing: the limits allow it at once.
    expect(review.etaMs).toBe(0);

    const handle = s.apply.apply(id);
    const final = await handle.done;
    expect(final).toMatchObject({ state: 'done', itemsFailed: 0, itemsUnknown: 0 });
    expect(s.drafts.entries(id).every((e) => e.status === 'done')).toBe(true);

    const service = new Map(sandbox.admin.listings().filter((l) => l.state === 'active').map((l) => [l.asset_id, l]));
    const ledger = s.t.repos.listings.all();
    expect(ledger.length).toBe(service.size);
    for (const row of ledger) {
      const l = service.get(row.asset_id);
      expect(l, row.asset_id).toBeDefined();
      expect([row.listing_id, row.price, row.promoted, row.account]).toEqual([l?.listing_id, l?.price, l?.promoted, l?.account]);
    }
    expect(s.t.repos.listings.get(listed[140]?.asset_id ?? '')?.price).toBe(999);
    // The balance read before and after the create covers it in full: the quantity is known.
    expect(s.t.repos.buyOrders.get('5021;6')).toMatchObject({ quantity: 3, quantity_may_be_cut: false });
    expect(sandbox.log.counters.duplicateCreates).toBe(0);

    // Every request that changed something is in the activity log with its outcome, and the key is nowhere.
    const writes = sandbox.log.requests.filter((q) => q.status === 200 && q.endpoint !== null && ENDPOINTS[q.endpoint].write);
    const activity = s.t.repos.activity.list({ limit: 5_000 });
    expect(activity.length).toBe(writes.length);
    expect(activity.every((a) => a.status === 'done')).toBe(true);
    expect(activity.reduce((n, a) => n + a.item_count, 0)).toBe(free.length + freeLinked.length + 100 + 41 + 1 + 1);
    s.t.store.db.exec('PRAGMA wal_checkpoint(FULL)');
    for (const file of [s.t.path, `${s.t.path}-wal`]) {
      expect(readFileSync(file).includes(Buffer.from(sandbox.apiKey))).toBe(false);
    }
  });

  it('takes the item a refusal names out of the batch; the rest is done', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 40);
    const { id } = s.drafts.create('one bad');
    // Asset 1 is not in the inventory: the service refuses any batch that names it, and says which item.
    s.drafts.addChanges(id, free.map((a, i): ChangeInput => ({ kind: 'listing.create', asset_id: i === 17 ? '1' : a.asset_id, price: 250, promoted: 0 })));
    const final = await s.apply.apply(id).done;
    expect(final).toMatchObject({ state: 'done', itemsDone: 39, itemsFailed: 1 });
    const failed = s.drafts.entries(id).filter((e) => e.status === 'failed');
    expect(failed.map((e) => e.target)).toEqual(['L:1']);
    expect(failed[0]?.error?.message).toMatch(/not in the inventory/);
    expect(s.t.repos.listings.count()).toBe(39);
    const creates = sandbox.log.requests.filter((q) => q.endpoint === 'create_listing').map((q) => [q.status, q.itemCount]);
    expect(creates).toEqual([[400, 40], [200, 39]]);
  });

  it('fails an item the create response does not list, and keeps it in the draft', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 5);
    // Listed elsewhere (not in our ledger): the service skips it as a duplicate.
    sandbox.admin.seedListings(1);
    const taken = free[0]?.asset_id as string;
    const { id } = s.drafts.create('taken');
    s.drafts.addChanges(id, free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })));
    const final = await s.apply.apply(id).done;
    expect(final.itemsDone).toBe(5);
    const entries = new Map(s.drafts.entries(id).map((e) => [e.target, e]));
    expect(entries.get(`L:${taken}`)).toMatchObject({ status: 'failed', error: { message: expect.stringMatching(/does not list/) } });
    expect(s.t.repos.listings.count()).toBe(4);
    // Applying again sends only what failed.
    const again = await s.apply.apply(id).done;
    expect(again.itemsTotal).toBe(1);
  });

  it('shows a lost create response as an unknown outcome and never sends it again by itself; a lost edit is sent again', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(10);
    const free = sandbox.admin.inventory().slice(0, 30);
    s.adopt(listed);
    const { id } = s.drafts.create('lossy');
    s.drafts.addChanges(id, [
      ...free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })),
      ...listed.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 7 })),
    ]);
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing', 'edit_listing'], count: 2 } });
    const final = await s.apply.apply(id).done;
    // The edit sets absolute values: sending it again is harmless, so the retry loop does.
    expect(final).toMatchObject({ state: 'done', itemsUnknown: 30, itemsDone: 10 });
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'edit_listing').map((r) => r.dropped)).toEqual([true, false]);
    const wanted = new Map(listed.map((l) => [l.asset_id, l.price + 7]));
    expect(s.t.repos.listings.all().filter((l) => wanted.has(l.asset_id)).every((l) => l.price === wanted.get(l.asset_id))).toBe(true);
    const unknown = s.apply.unknownOutcomes();
    expect(unknown.map((u) => [u.endpoint, u.items.length, u.choices.map((c) => c.id)])).toEqual([
      ['create_listing', 30, ['recreate', 'mark_done', 'drop']],
    ]);
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'create_listing')).toHaveLength(1);
    // A second apply leaves unknown changes alone.
    const before = sandbox.log.requests.length;
    await s.apply.apply(id).done;
    expect(sandbox.log.requests.length).toBe(before);

    // Resolve: the creates are deleted by asset and made again.
    for (const u of unknown) s.apply.resolve(u.id, 'recreate');
    expect(s.apply.unknownOutcomes()).toEqual([]);
    const resolved = await s.apply.apply(id).done;
    expect(resolved).toMatchObject({ itemsFailed: 0, itemsUnknown: 0 });
    expect(s.drafts.entries(id).every((e) => e.status === 'done')).toBe(true);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
    const live = sandbox.admin.listings().filter((l) => l.state === 'active');
    expect(live.length).toBe(40);
    for (const row of s.t.repos.listings.all()) {
      expect(live.find((l) => l.asset_id === row.asset_id)?.listing_id).toBe(row.listing_id);
    }
  });

  it('marks a lost create as done with its listing ID unknown (flagged), or drops it', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 2);
    const { id } = s.drafts.create('d');
    s.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: free[0]?.asset_id ?? '', price: 250, promoted: 0 }]);
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    await s.apply.apply(id).done;
    const [u] = s.apply.unknownOutcomes();
    s.apply.resolve(u?.id ?? '', 'mark_done');
    expect(s.t.repos.listings.get(free[0]?.asset_id ?? '')).toMatchObject({ listing_id: null, id_unknown: true });
    // An edit of it is refused: its ID is unknown.
    const r = s.drafts.addChanges(id, [{ kind: 'listing.edit', asset_id: free[0]?.asset_id ?? '', price: 1 }]);
    expect(r.errors[0]?.field).toBe('listing_id');
    expect(() => s.apply.resolve(u?.id ?? '', 'drop')).toThrow(/no unresolved/);
  });

  it('runs a delete-all before anything else and shows what it removes', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(12);
    s.adopt(listed);
    sandbox.admin.setListingState(listed[0]?.listing_id ?? '', 'inactive');
    s.adopt([{ ...(listed[0] as (typeof listed)[number]), state: 'inactive' }]);
    const { id } = s.drafts.create('reset');
    s.drafts.addChanges(id, [
      { kind: 'listing.deleteAll', active_only: true },
      // Listing an asset of the ledger again is allowed once the delete-all removes it.
      { kind: 'listing.create', asset_id: listed[5]?.asset_id ?? '', price: 111, promoted: 0 },
    ]);
    const review = await s.drafts.review(id);
    expect(review.removes).toEqual({ listings: 11, buyOrders: 0 });
    expect(s.drafts.reviewPage(id, { show: 'open', offset: 0, limit: 10 }).rows[0])
      .toMatchObject({ kind: 'listing.deleteAll', fields: [{ field: 'listings', before: 11, after: 0 }] });
    await s.apply.apply(id).done;
    const order = sandbox.log.requests.filter((q) => q.endpoint !== null).map((q) => q.endpoint);
    expect(order).toEqual(['delete_all_listings', 'create_listing']);
    expect(s.t.repos.listings.all().map((l) => [l.asset_id, l.price]).sort()).toEqual(
      [[listed[0]?.asset_id, listed[0]?.price], [listed[5]?.asset_id, 111]].sort(),
    );
  });
});

describe('starting a large apply', () => {
  it('answers Apply with the run journaled, plans one batch per endpoint on the next step, the rest of the window a step at a time after it, and the rest as outcomes come in', async () => {
    const s = await start();
    const { sandbox } = s.live;
    // Twenty requests' worth of edits, two parts of the queue.
    const total = 2_000;
    const listed = sandbox.admin.seedListings(total);
    s.adopt(listed);
    const { id } = s.drafts.create('big');
    expect(s.drafts.addChanges(id, listed.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 3 }))).errors).toEqual([]);
    const handle = s.apply.apply(id);
    // Apply answers once the run is journaled and its first part queued: the job counts them all, and plans nothing
    // in the same step.
    const open = () => s.t.repos.journal.batches({ runId: handle.runId, states: ['planned', 'sent'] });
    const waiting = () => s.t.repos.drafts.queuedWithoutBatch(id, s.t.repos.journal.run(handle.runId)?.queue_below ?? null);
    expect(open()).toEqual([]);
    expect(s.t.repos.drafts.statusCounts(id)).toEqual({ queued: QUEUE_PART, pending: total - QUEUE_PART });
    expect(waiting()).toBe(total);
    expect(handle.progress()).toMatchObject({ state: 'running', itemsTotal: total, itemsDone: 0 });
    // The next step, after the timers: one batch planned, the rest waiting queued without a batch.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(open().map((b) => b.endpoint)).toEqual(['edit_listing']);
    expect(waiting()).toBe(total - 100);
    expect(handle.progress()).toMatchObject({ itemsTotal: total, itemsDone: 0 });
    // The next steps, once the first requests had their time and the rest is queued, plan the rest of the window, a
    // batch a step, whether or not an answer came meanwhile.
    const planned = () => s.t.repos.journal.batches({ runId: handle.runId }).length;
    for (let step = 0; step < 200 && planned() < 6; step++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(planned()).toBeGreaterThanOrEqual(6);
    // From then on six wait ready for the endpoint's next turns, besides those in flight (five a window): never the whole draft.
    let mostOpen = 0;
    handle.job.on('progress', () => void (mostOpen = Math.max(mostOpen, open().length)));
    const final = await handle.done;
    expect(final).toMatchObject({ state: 'done', itemsTotal: total, itemsDone: total, itemsFailed: 0, itemsLeft: 0 });
    expect(s.drafts.entries(id).every((e) => e.status === 'done')).toBe(true);
    expect(s.t.repos.journal.batches({ runId: handle.runId }).filter((b) => b.state === 'done')).toHaveLength(20);
    expect(mostOpen).toBeGreaterThanOrEqual(6);
    expect(mostOpen).toBeLessThanOrEqual(6 + 5);
    const edited = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    for (const l of listed) expect(edited.get(l.asset_id)).toBe(l.price + 3);
  });

  it('plans its first batch on the step after Apply while the rest of a draft larger than a part is queued a step at a time, and a start cut short while queuing finishes it first', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const total = QUEUE_PART + 2_000;
    const listed = sandbox.admin.seedListings(total);
    s.adopt(listed);
    const edits = (cents: number) => listed.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + cents }));
    const { id } = s.drafts.create('larger than a part');
    expect(s.drafts.addChanges(id, edits(3)).errors).toEqual([]);
    const handle = s.apply.apply(id);
    // Apply answers with one part queued and nothing planned yet.
    expect(s.t.repos.drafts.statusCounts(id)).toEqual({ queued: QUEUE_PART, pending: total - QUEUE_PART });
    expect(s.t.repos.journal.batches({ runId: handle.runId })).toEqual([]);
    // The job counts every change of the run from the start, queued yet or not.
    expect(handle.progress()).toMatchObject({ state: 'running', itemsTotal: total, itemsLeft: total });
    // The next step plans the first batch (which may be on its way already) with the rest not queued yet.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.t.repos.journal.batches({ runId: handle.runId })).toHaveLength(1);
    expect(s.t.repos.drafts.statusCounts(id).pending).toBe(total - QUEUE_PART);
    expect(s.t.repos.journal.run(handle.runId)?.queue_below).not.toBeNull();
    // The step after it is the first batch's check: nothing more is queued in it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.t.repos.drafts.statusCounts(id).pending).toBe(total - QUEUE_PART);
    // Once the first requests had their time, the steps after it queue the rest, a part a step.
    await new Promise((resolve) => setTimeout(resolve, 25));
    for (let step = 0; step < 5 && s.t.repos.journal.run(handle.runId)?.queue_below !== null; step++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(s.t.repos.journal.run(handle.runId)?.queue_below).toBeNull();
    expect(s.t.repos.drafts.statusCounts(id).pending).toBeUndefined();
    expect(await handle.done).toMatchObject({ state: 'done', itemsTotal: total, itemsDone: total });
    expect(s.t.repos.drafts.statusCounts(id)).toEqual({ done: total });

    // A run journaled with its first part queued, then the app stopped: the next start queues the rest, then applies all.
    expect(s.drafts.addChanges(id, edits(5)).errors).toEqual([]);
    const cut = createJournal(s.t.store, { repos: s.t.repos, db: s.t.store.db, touched: () => undefined }).startRun(id);
    expect(s.t.repos.drafts.statusCounts(id)).toMatchObject({ queued: QUEUE_PART, pending: total - QUEUE_PART });
    s.restart();
    const [resumed] = s.apply.recover().resumed;
    expect(resumed?.runId).toBe(cut.run_id);
    expect(await resumed?.done).toMatchObject({ state: 'done', itemsDone: total });
    expect(s.t.repos.drafts.statusCounts(id)).toEqual({ done: total });
    const prices = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l.price]));
    for (const l of listed) expect(prices.get(l.asset_id)).toBe(l.price + 5);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
  });

  it('holds the creates that wait for their own delete until every change of the run is queued, and sends each after its delete', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(QUEUE_PART + 100);
    s.adopt(listed);
    const { id } = s.drafts.create('relists');
    // Each listed again at another price: each create waits for its own delete (phase 2 of phases.ts). Creates come
    // first in the draft's status index (slot L before LD), so the first part queued is creates without their deletes.
    expect(s.drafts.addChanges(id, listed.flatMap((l) => [
      { kind: 'listing.delete', asset_id: l.asset_id },
      { kind: 'listing.create', asset_id: l.asset_id, price: l.price + 50, promoted: 0 },
    ])).errors).toEqual([]);
    const handle = s.apply.apply(id);
    // Planned while a delete is not queued yet, a create would be settled as failed ("its delete is unfinished").
    const createsTakenWhileQueuing = () => s.t.repos.journal.run(handle.runId)?.queue_below !== null &&
      ((s.t.repos.drafts.statusCounts(id).failed ?? 0) > 0 ||
        s.t.repos.journal.batches({ runId: handle.runId }).some((b) => b.endpoint === 'create_listing'));
    let early = false;
    let ended = false;
    void handle.done.then(() => (ended = true));
    while (!ended) {
      early ||= createsTakenWhileQueuing();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(early).toBe(false);
    expect(await handle.done).toMatchObject({ state: 'done', itemsFailed: 0, itemsUnknown: 0 });
    const writes = sandbox.log.requests.filter((q) => q.status === 200 && (q.endpoint === 'delete_listing' || q.endpoint === 'create_listing'));
    const lastDelete = writes.map((q) => q.endpoint).lastIndexOf('delete_listing');
    const firstCreate = writes.map((q) => q.endpoint).indexOf('create_listing');
    expect(firstCreate).toBeGreaterThan(lastDelete);
    const prices = new Map(sandbox.admin.listings().filter((l) => l.state === 'active').map((l) => [l.asset_id, l.price]));
    for (const l of listed) expect(prices.get(l.asset_id)).toBe(l.price + 50);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
  });

  it('queues a delete-all as the run starts, whatever part it would fall in, and sends it before anything else', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(QUEUE_PART + 100);
    s.adopt(listed);
    const { id } = s.drafts.create('edits, then a delete-all');
    expect(s.drafts.addChanges(id, listed.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 3 }))).errors).toEqual([]);
    // Made last, it is the last of the draft's status index: the first part would not take it.
    expect(s.drafts.addChanges(id, [{ kind: 'buyOrder.deleteAll' }]).errors).toEqual([]);
    const handle = s.apply.apply(id);
    expect(s.drafts.entries(id).find((e) => e.change.kind === 'buyOrder.deleteAll')?.status).toBe('queued');
    expect(s.t.repos.drafts.statusCounts(id)).toEqual({ queued: QUEUE_PART + 1, pending: listed.length - QUEUE_PART });
    expect(await handle.done).toMatchObject({ state: 'done', itemsFailed: 0, itemsUnknown: 0 });
    const writes = sandbox.log.requests.filter((q) => q.status === 200 && q.endpoint !== null && ENDPOINTS[q.endpoint].write).map((q) => q.endpoint);
    expect(writes[0]).toBe('delete_all_buy_orders');
    expect(writes.filter((e) => e === 'edit_listing')).toHaveLength(Math.ceil(listed.length / 100));
  });
});
