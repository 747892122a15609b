import { describe, expect, it } from 'vitest';
import { undoApply } from '../../../src-main/core/apply/undo-apply.ts';
import { confirmationOf } from '../../../src-shared/price-guard.ts';
import { applyFixture } from './support.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

describe('undoing an apply', () => {
  it('makes a current draft that, reviewed and applied, brings back the values before it; creates go, deletes are said', async () => {
    const s = await start();
    const { sandbox } = s.live;
    sandbox.admin.setBalance(100_000_000);
    const listed = sandbox.admin.seedListings(30);
    s.adopt(listed);
    const setup = s.drafts.create('buy orders');
    s.drafts.addChanges(setup.id, [
      { kind: 'buyOrder.create', sku: '5021;6', price: 180, quantity: 3, user_note: 'keys' },
      { kind: 'buyOrder.create', sku: '725;6', price: 90, quantity: 2 },
    ]);
    expect(await s.apply.apply(setup.id).done).toMatchObject({ itemsDone: 2 });
    const serviceBefore = new Map(sandbox.admin.listings().map((l) => [l.listing_id, { ...l }]));
    const free = sandbox.admin.inventory().slice(0, 3);

    // The mistake: 95 % off 25 listings (one with a note and promoted), a buy order changed, three listed, one ordered, deletes.
    const mistake = s.drafts.create('mistake');
    const r = s.drafts.addChanges(mistake.id, [
      ...listed.slice(0, 25).map((l, i): ChangeInput => ({
        kind: 'listing.edit', listing_id: l.listing_id, price: Math.max(1, Math.round(l.price * 0.05)),
        ...(i === 0 ? { promoted: 1, user_note: 'cheap!' } : {}),
      })),
      { kind: 'buyOrder.edit', sku: '5021;6', price: 10, quantity: 1, active: 0, user_note: 'oops' },
      ...free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 5, promoted: 0 })),
      { kind: 'buyOrder.create', sku: '5000;6', price: 3, quantity: 4 },
      { kind: 'listing.delete', asset_id: listed[25]?.asset_id ?? '' },
      { kind: 'buyOrder.delete', sku: '725;6' },
    ]);
    expect(r.errors).toEqual([]);
    // The guard marks the cut; the trader confirmed it.
    expect(s.drafts.guard(mistake.id).listings.drops).toBe(25);
    const handle = s.apply.apply(mistake.id, { confirmGuard: confirmationOf(s.drafts.guard(mistake.id)) });
    expect(await handle.done).toMatchObject({ state: 'done', itemsDone: 32, itemsFailed: 0 });

    // Another apply changes one of those listings again before the undo.
    const since = s.drafts.create('since');
    s.drafts.addChanges(since.id, [{ kind: 'listing.edit', listing_id: listed[1]?.listing_id, price: 777 }]);
    await s.apply.apply(since.id, { confirmGuard: confirmationOf(s.drafts.guard(since.id)) }).done;

    const undo = await s.apply.undo(handle.runId);
    expect(undo).toMatchObject({ restored: 26, removed: 4, recreated: 1, unchanged: 0, unresolved: 0, relistable: 1 });
    expect(undo.name).toMatch(/^Undo of apply \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(s.drafts.current()).toBe(undo.draftId);
    const draft = s.drafts.list().find((d) => d.id === undo.draftId);
    expect(draft?.name).toBe(undo.name);
    expect(undo.notes).toEqual([
      { target: `L:${listed[25]?.asset_id}`, sku: listed[25]?.sku, kind: 'lost', reason: 'deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing' },
      { target: `L:${listed[1]?.asset_id}`, sku: listed[1]?.sku, kind: 'changedSince', reason: expect.stringMatching(/^changed since this apply \(now \$7\.77, it left \$\d+\.\d\d\); set back to its values before this apply anyway$/) },
    ]);

    // Reviewed as any draft: edits back, deletes of what was created, the buy order created again.
    const review = await s.drafts.review(undo.draftId ?? '');
    expect(review.openByKind).toEqual({ 'listing.edit': 25, 'buyOrder.edit': 1, 'listing.delete': 3, 'buyOrder.delete': 1, 'buyOrder.create': 1 });
    const page = s.drafts.reviewPage(undo.draftId ?? '', { show: 'open', offset: 0, limit: 100 });
    const first = page.rows.find((row) => row.target === listed[0]?.asset_id);
    expect(first?.fields).toEqual(expect.arrayContaining([
      { field: 'price', before: Math.max(1, Math.round((listed[0]?.price ?? 0) * 0.05)), after: listed[0]?.price },
    ]));

    // Back from 5 % is a rise of 20×: the guard marks it as it would any, and the trader confirms it.
    const undoGuard = s.drafts.guard(undo.draftId ?? '');
    expect(undoGuard.listings.rises).toBeGreaterThan(0);
    expect(await s.apply.apply(undo.draftId ?? '', { confirmGuard: confirmationOf(undoGuard) }).done).toMatchObject({ state: 'done', itemsFailed: 0, itemsUnknown: 0 });
    // The service holds the old prices, promotions and notes again; what the mistake listed is gone.
    const service = new Map(sandbox.admin.listings().map((l) => [l.listing_id, l]));
    for (const l of listed.slice(0, 25)) {
      const before = serviceBefore.get(l.listing_id);
      expect([service.get(l.listing_id)?.price, service.get(l.listing_id)?.promoted, service.get(l.listing_id)?.user_note], l.listing_id)
        .toEqual([before?.price, before?.promoted, before?.user_note]);
    }
    for (const a of free) expect(sandbox.admin.listings().some((l) => l.asset_id === a.asset_id)).toBe(false);
    const orders = new Map(sandbox.admin.buyOrders().map((o) => [o.sku, o]));
    expect(orders.get('5021;6')).toMatchObject({ price: 180, quantity: 3, active: 1, user_note: 'keys' });
    expect(orders.get('725;6')).toMatchObject({ price: 90, quantity: 2, active: 1 });
    expect(orders.has('5000;6')).toBe(false);
    // The deleted listing stays deleted.
    expect(service.get(listed[25]?.listing_id ?? '')).toBeUndefined();
  });

  it('offers to list deleted listings again: a current draft listing each asset at its last price, promotion and note', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(6);
    s.adopt(listed);
    // The first listing carries a note and a promotion into the apply that deletes it.
    const dress = s.drafts.create('dress');
    s.drafts.addChanges(dress.id, [{ kind: 'listing.edit', listing_id: listed[0]?.listing_id, promoted: 1, user_note: 'spare' }]);
    expect(await s.apply.apply(dress.id).done).toMatchObject({ itemsDone: 1 });
    const { id } = s.drafts.create('clear out');
    s.drafts.addChanges(id, listed.slice(0, 4).map((l): ChangeInput => ({ kind: 'listing.delete', asset_id: l.asset_id })));
    const handle = s.apply.apply(id);
    expect(await handle.done).toMatchObject({ state: 'done', itemsDone: 4, itemsFailed: 0 });
    // One of the four is listed again by hand (another draft) before the trader asks.
    const byHand = s.drafts.create('by hand');
    s.drafts.addChanges(byHand.id, [{ kind: 'listing.create', asset_id: listed[3]?.asset_id ?? '', price: 999, promoted: 0 }]);
    expect(await s.apply.apply(byHand.id).done).toMatchObject({ itemsDone: 1 });

    const undo = await s.apply.undo(handle.runId);
    expect(undo).toMatchObject({ draftId: null, relistable: 3 });
    const reasons = new Map(undo.notes.map((n) => [n.target, n.reason]));
    expect(reasons.size).toBe(4);
    for (const l of listed.slice(0, 3)) expect(reasons.get(`L:${l.asset_id}`)).toBe('deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing');
    expect(reasons.get(`L:${listed[3]?.asset_id}`)).toBe('deleted by this apply, and its asset is listed again since: it is left as it is');

    await expect(s.apply.relistDeleted(999)).rejects.toMatchObject({ kind: 'not_found' });
    const relist = await s.apply.relistDeleted(handle.runId);
    expect(relist).toMatchObject({ added: 3, refused: 0, reasons: [] });
    expect(relist.name).toMatch(/^List again: deleted by apply \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(s.drafts.current()).toBe(relist.draftId);
    expect((await s.drafts.review(relist.draftId ?? '')).openByKind).toEqual({ 'listing.create': 3 });
    // Nothing is sent until the trader applies it; applied, each asset is listed at what its listing had.
    expect(sandbox.admin.listings().filter((l) => listed.slice(0, 3).some((d) => d.asset_id === l.asset_id))).toEqual([]);
    expect(await s.apply.apply(relist.draftId ?? '').done).toMatchObject({ state: 'done', itemsDone: 3, itemsFailed: 0 });
    const now = (asset: string | undefined) => sandbox.admin.listings().find((n) => n.asset_id === asset && n.state === 'active');
    expect([now(listed[0]?.asset_id)?.price, now(listed[0]?.asset_id)?.promoted, now(listed[0]?.asset_id)?.user_note]).toEqual([listed[0]?.price, 1, 'spare']);
    for (const l of listed.slice(1, 3)) expect([now(l.asset_id)?.price, now(l.asset_id)?.promoted], l.asset_id).toEqual([l.price, l.promoted]);
    // Asked again, nothing is left to list again: no draft is made.
    expect(await s.apply.relistDeleted(handle.runId)).toMatchObject({ draftId: null, added: 0, refused: 0 });
  });

  it('is refused for an apply that is not there, or still running', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(600);
    s.adopt(listed);
    await expect(s.apply.undo(999)).rejects.toMatchObject({ kind: 'not_found' });
    const { id } = s.drafts.create('long');
    s.drafts.addChanges(id, listed.map((l): ChangeInput => ({ kind: 'listing.edit', listing_id: l.listing_id, price: l.price + 1 })));
    const handle = s.apply.apply(id);
    await expect(s.apply.undo(handle.runId)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringMatching(/still running/) });
    await new Promise<void>((resolve) => handle.job.on('progress', (p) => {
      if (p.itemsDone > 0) resolve();
    }));
    handle.job.cancel();
    await handle.done;
    // Cancelled after a few batches: what was done can be undone.
    expect((await s.apply.undo(handle.runId)).restored).toBeGreaterThan(0);
  });

  it('takes back a large apply a slice at a time, named as being made until done; cut short, its draft goes', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(1_200);
    s.adopt(listed);
    const { id } = s.drafts.create('big');
    s.drafts.addChanges(id, listed.map((l): ChangeInput => ({ kind: 'listing.edit', listing_id: l.listing_id, price: l.price + 3 })));
    const handle = s.apply.apply(id);
    expect(await handle.done).toMatchObject({ itemsDone: 1_200 });
    const drafts = () => s.drafts.list().map((d) => d.name);

    const seen: string[][] = [];
    const undo = await undoApply({ repos: s.t.repos, drafts: s.drafts, turn: async () => void seen.push(drafts()) }, handle.runId);
    // Three slices: between them the draft is there, named as being made.
    expect(seen).toHaveLength(2);
    for (const names of seen) expect(names).toContain(`${undo.name} (being made)`);
    expect(drafts()).toEqual(['big', undo.name]);
    expect(undo.restored).toBe(1_200);
    expect((await s.drafts.review(undo.draftId ?? '')).openByKind).toEqual({ 'listing.edit': 1_200 });

    let turns = 0;
    const cut = undoApply({ repos: s.t.repos, drafts: s.drafts, turn: async () => {
      turns += 1;
      if (turns === 2) throw new Error('the workspace closed');
    } }, handle.runId);
    await expect(cut).rejects.toThrow('the workspace closed');
    expect(drafts()).toEqual(['big', undo.name]);
  });
});
