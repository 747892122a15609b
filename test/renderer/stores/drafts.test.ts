import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuyOrderRow, ChangeView, DraftSummary, ListingRow } from '../../../src-shared/contract.ts';
import type { DraftOverlay } from '../../../src-renderer/src/lib/draft-overlay.ts';
import { overlayBuyOrders, overlayListings } from '../../../src-renderer/src/lib/overlay-rows.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import { flush, installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

function summary(id: string, updatedAt: number): DraftSummary {
  return { id, name: `Draft ${id}`, createdAt: 0, updatedAt, changeCount: 0, failedCount: 0, unknownCount: 0, doneCount: 0 };
}

/** How the Listings table shows ledger listing `asset` (priced 200) under this overlay. */
function shownListing(overlay: DraftOverlay, asset: string) {
  const row: ListingRow = { listing_id: null, asset_id: asset, sku: '5021;6', price: 200, promoted: 0, game: '440', user_note: '', account: 'main', state: 'active', updatedAt: 0 };
  return overlayListings([row], overlay, 'main')[0];
}

function buyOrder(sku: string): BuyOrderRow {
  return { sku, account: 'main', price: 200, quantity: 1, active: 1, user_note: '', filled: 0, quantityMayBeCut: false, updatedAt: 0 };
}

describe('drafts store', () => {
  let fake: FakeApi;
  let drafts: DraftSummary[];
  let changes: Map<string, ChangeView[]>;

  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
    drafts = [];
    changes = new Map();
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:create': ({ name }) => {
        const d = summary(`d${drafts.length + 1}`, 10);
        d.name = name;
        drafts.push(d);
        return d;
      },
      'drafts:changes': ({ draftId }) => changes.get(draftId) ?? [],
      'drafts:addChanges': ({ draftId, changes: list }) => {
        const existing = changes.get(draftId) ?? [];
        list.forEach((c, i) => existing.push({ id: `c${i}`, kind: c.kind, target: 'x', fields: {}, status: 'pending', error: null, updatedAt: 0 }));
        changes.set(draftId, existing);
        return { added: list.length, errors: [] };
      },
      'drafts:bulk': () => ({ changed: 2, matched: 2, refused: [] }),
      'drafts:discard': ({ draftId }) => {
        drafts = drafts.filter((d) => d.id !== draftId);
        return { ok: true };
      },
    });
  });
  afterEach(() => {
    fake.uninstall();
    vi.useRealTimers();
  });

  it('makes a draft on the first edit when there is none, and sends edits into it', async () => {
    const store = useDraftsStore();
    await store.load();
    expect(store.currentId).toBeNull();
    await store.addChanges([{ kind: 'listing.delete', asset_id: '1' }]);
    expect(fake.callsTo('drafts:create')).toHaveLength(1);
    expect(fake.callsTo('drafts:addChanges')).toEqual([{ draftId: 'd1', changes: [{ kind: 'listing.delete', asset_id: '1' }] }]);
    expect(store.changes).toHaveLength(1);
    expect(store.pendingCount).toBe(1);
  });

  it('starts a new draft without asking main for its changes, and keeps the overlay as it was', async () => {
    const store = useDraftsStore();
    await store.load();
    const overlay = store.overlay;
    const reads = fake.callsTo('drafts:changes').length;
    const made = await store.create('Repricing');
    expect(store.currentId).toBe(made.id);
    expect(store.current?.name).toBe('Repricing');
    expect(fake.callsTo('drafts:changes').length).toBe(reads);
    // Nothing to show either way: the ledger tables are not rebuilt for it.
    expect(store.overlay).toBe(overlay);
  });

  it('empties the shown changes when a new draft replaces one that had some', async () => {
    drafts = [summary('d1', 5)];
    changes.set('d1', [{ id: 'c1', kind: 'listing.delete', target: '1', fields: {}, status: 'pending', error: null, updatedAt: 0 }]);
    const store = useDraftsStore();
    await store.load();
    expect(store.changes).toHaveLength(1);
    await store.create('Fresh');
    expect(store.changes).toHaveLength(0);
    expect(store.overlay.listingDeletes.size).toBe(0);
  });

  it('sends bulk operations as a selection of IDs', async () => {
    drafts = [summary('d1', 5)];
    const store = useDraftsStore();
    await store.load();
    await store.bulk('listings', [{ key: '1001', price: 200 }, { key: '1002', price: 300 }], { op: 'multiply', percent: 95, rounding: 'down' });
    expect(fake.callsTo('drafts:bulk')).toEqual([
      { draftId: 'd1', target: 'listings', selection: { ids: ['1001', '1002'] }, op: { op: 'multiply', percent: 95, rounding: 'down' } },
    ]);
  });

  it('shows a bulk edit’s new values before main replies, and drops them for the stored ones', async () => {
    drafts = [summary('d1', 5)];
    const gate = { open: () => {} };
    fake.uninstall();
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:changes': ({ draftId }) => changes.get(draftId) ?? [],
      'drafts:bulk': async () => {
        await new Promise<void>((r) => (gate.open = r));
        changes.set('d1', [{ id: 'L:1001', kind: 'listing.edit', target: '1001', fields: { asset_id: '1001', price: 191, promoted: 0, user_note: '' }, status: 'pending', error: null, updatedAt: 1 }]);
        fake.emit('drafts:changed', { draftId: 'd1' });
        return { changed: 1, matched: 1, refused: [] };
      },
    });
    const store = useDraftsStore();
    store.start();
    await flush();
    const done = store.bulk('listings', [{ key: '1001', price: 200 }], { op: 'multiply', percent: 95.5, rounding: 'down' });
    // Shown at once, with the draft's rounding, though nothing is stored yet.
    expect(shownListing(store.overlay, '1001')?.pending?.price).toBe(191);
    expect(store.changes).toHaveLength(0);
    await flush();
    gate.open();
    await done;
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.callsTo('drafts:changes').length).toBe(2);
    // The stored change itself, no longer a local copy laid over it.
    expect(store.overlay.listingPatch.size).toBe(0);
    expect(shownListing(store.overlay, '1001')?.changeId).toBe('L:1001');
    expect(shownListing(store.overlay, '1001')?.pending?.price).toBe(191);
    expect(store.pendingCount).toBe(1);
  });

  it('takes a bulk edit’s shown values back when main refuses it', async () => {
    drafts = [summary('d1', 5)];
    fake.uninstall();
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:changes': () => [],
      'drafts:bulk': () => ({ changed: 0, matched: 1, refused: [{ id: '1001', reason: 'being applied or its outcome is unknown' }] }),
    });
    const store = useDraftsStore();
    await store.load();
    const result = await store.bulk('listings', [{ key: '1001', price: 200 }], { op: 'setPrice', cents: 150 });
    expect(result.refused).toHaveLength(1);
    expect(shownListing(store.overlay, '1001')?.change).toBeNull();
  });

  it('takes a bulk edit’s shown values back when the call fails', async () => {
    drafts = [summary('d1', 5)];
    fake.uninstall();
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:changes': () => [],
      'drafts:bulk': () => {
        throw new Refusal({ kind: 'internal', message: 'database is locked' });
      },
    });
    const store = useDraftsStore();
    await store.load();
    await expect(store.bulk('buyOrders', [{ key: 'sku-1', price: 200 }], { op: 'setQuantity', quantity: 3 })).rejects.toThrow('database is locked');
    expect(overlayBuyOrders([buyOrder('sku-1')], store.overlay, 'main')[0]?.change).toBeNull();
  });

  it('remembers the current draft across reloads, and falls back to the newest when it is gone', async () => {
    drafts = [summary('d1', 5), summary('d2', 9)];
    const first = useDraftsStore();
    await first.load();
    expect(first.currentId).toBe('d2');
    await first.select('d1');

    setActivePinia(createPinia());
    const again = useDraftsStore();
    await again.load();
    expect(again.currentId).toBe('d1');

    await again.discard('d1');
    expect(again.currentId).toBe('d2');
  });

  it('does not reload twice when main announces the change its own action made', async () => {
    drafts = [summary('d1', 5)];
    const store = useDraftsStore();
    store.start();
    await flush();
    const before = fake.callsTo('drafts:changes').length;
    // Main emits drafts:changed inside the handler, before it replies.
    fake.emit('drafts:changed', { draftId: 'd1' });
    await store.addChanges([{ kind: 'listing.delete', asset_id: '1' }]);
    await new Promise((r) => setTimeout(r, 120));
    expect(fake.callsTo('drafts:changes').length - before).toBe(1);
  });

  it('does not reload twice when the announcement’s reload is already running as the reply lands', async () => {
    drafts = [summary('d1', 5)];
    fake.uninstall();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let loads = 0;
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:changes': async () => {
        loads++;
        await sleep(100);
        return [];
      },
      'drafts:addChanges': async () => {
        // Main announces the stored change, then its reply takes a while to arrive.
        fake.emit('drafts:changed', { draftId: 'd1' });
        await sleep(80);
        return { added: 1, errors: [] };
      },
    });
    const store = useDraftsStore();
    store.start();
    await sleep(150);
    loads = 0;
    await store.addChanges([{ kind: 'listing.delete', asset_id: '1' }]);
    await sleep(150);
    expect(loads).toBe(1);
  });

  it('reads the draft back once after a bulk edit’s reply, not while it is on its way', async () => {
    drafts = [summary('d1', 5)];
    fake.uninstall();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const reads: string[] = [];
    let refuse = false;
    fake = installFakeApi({
      'drafts:list': () => drafts,
      'drafts:changes': () => {
        reads.push('read');
        return [];
      },
      'drafts:bulk': async () => {
        // Main announces the stored change; its reply arrives later than a queued reload would start.
        fake.emit('drafts:changed', { draftId: 'd1' });
        await sleep(120);
        reads.push('reply');
        return refuse ? { changed: 0, matched: 1, refused: [{ id: '1001', reason: 'no such listing' }] } : { changed: 1, matched: 1, refused: [] };
      },
    });
    const store = useDraftsStore();
    store.start();
    await sleep(20);
    reads.length = 0;
    await store.bulk('listings', [{ key: '1001', price: 200 }], { op: 'setPrice', cents: 150 });
    await sleep(120);
    expect(reads).toEqual(['reply', 'read']);
    // A refusal reads nothing back itself: what was announced meanwhile is still read, once.
    refuse = true;
    reads.length = 0;
    await store.bulk('listings', [{ key: '1001', price: 200 }], { op: 'setPrice', cents: 150 });
    await sleep(120);
    expect(reads).toEqual(['reply', 'read']);
  });

  it('reloads the current draft once for a burst of drafts:changed events', async () => {
    drafts = [summary('d1', 5)];
    const store = useDraftsStore();
    store.start();
    await flush();
    const before = fake.callsTo('drafts:changes').length;
    vi.useFakeTimers();
    for (let i = 0; i < 10; i++) fake.emit('drafts:changed', { draftId: 'd1' });
    await vi.advanceTimersByTimeAsync(100);
    vi.useRealTimers();
    await flush();
    expect(fake.callsTo('drafts:changes').length - before).toBe(1);
  });
});
