import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeView, DraftSummary } from '../../../src-preload/contract.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import { flush, installFakeApi, type FakeApi } from '../fake-api.ts';

function summary(id: string, updatedAt: number): DraftSummary {
  return { id, name: `Draft ${id}`, createdAt: 0, updatedAt, changeCount: 0, failedCount: 0, unknownCount: 0, doneCount: 0 };
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

  it('sends bulk operations as a selection of IDs', async () => {
    drafts = [summary('d1', 5)];
    const store = useDraftsStore();
    await store.load();
    await store.bulk('listings', ['1001', '1002'], { op: 'multiply', percent: 95, rounding: 'down' });
    expect(fake.callsTo('drafts:bulk')).toEqual([
      { draftId: 'd1', target: 'listings', selection: { ids: ['1001', '1002'] }, op: { op: 'multiply', percent: 95, rounding: 'down' } },
    ]);
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
