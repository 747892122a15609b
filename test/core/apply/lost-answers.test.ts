import { describe, expect, it } from 'vitest';
import { createLedgerChecker } from '../../../src-main/core/trades/ledger-check.ts';
import { applyFixture } from './support.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

describe('answers that do not say what happened', () => {
  it('a 502 after a create batch was applied: every item an unknown outcome, nothing sent again', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 20);
    const { id } = s.drafts.create('creates');
    s.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })));
    sandbox.faults.set({ serverErrorAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    const final = await s.apply.apply(id).done;
    expect(final).toMatchObject({ itemsUnknown: 20, itemsFailed: 0 });
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'create_listing')).toHaveLength(1);
    expect(s.apply.unknownOutcomes()[0]?.reason).toMatch(/answered 502 after the request reached it/);
  });

  it('a 502 after an edit batch: sent again, as an edit sets absolute values', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(20);
    s.adopt(listed);
    const { id } = s.drafts.create('edits');
    s.drafts.addChanges(id, listed.map((l) => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 3 })));
    sandbox.faults.set({ serverErrorAfterProcess: { endpoints: ['edit_listing'], count: 1 } });
    const final = await s.apply.apply(id).done;
    expect(final).toMatchObject({ itemsDone: 20, itemsUnknown: 0, itemsFailed: 0 });
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'edit_listing').map((r) => r.status)).toEqual([502, 200]);
  });

  it('a lost delete answer: asked again, "no listing" for the first item means the lost attempt did it; the rest waits for the trader with that evidence', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(20);
    s.adopt(listed);
    const { id } = s.drafts.create('deletes');
    s.drafts.addChanges(id, listed.map((l) => ({ kind: 'listing.delete', asset_id: l.asset_id })));
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['delete_listing'], count: 1 } });
    const final = await s.apply.apply(id).done;
    expect(final).toMatchObject({ itemsTotal: 20, itemsDone: 1, itemsUnknown: 19, itemsFailed: 0 });
    // Two requests, not one per item: the lost one, and the retry that learnt they are gone.
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'delete_listing').map((r) => r.status)).toEqual([200, 400]);
    const [outcome, ...none] = s.apply.unknownOutcomes();
    expect(none).toEqual([]);
    expect(outcome?.items).toHaveLength(19);
    expect(outcome?.evidence[0]?.message).toMatch(/no listing for asset/);
    s.apply.resolve(outcome?.id ?? '', 'mark_done');
    expect(s.t.repos.listings.count()).toBe(0);
    expect(sandbox.admin.listings()).toEqual([]);
  });
});

describe('check ledger lists unknown outcomes', () => {
  it('names each item of a lost create with the outcome to resolve and the evidence since', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 3);
    const { id } = s.drafts.create('lost');
    s.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })));
    sandbox.faults.set({ dropAfterProcess: { endpoints: ['create_listing'], count: 1 } });
    await s.apply.apply(id).done;
    const [outcome] = s.apply.unknownOutcomes();
    const checker = createLedgerChecker({
      store: s.t.store, repos: s.t.repos, clock: s.live.clock,
      trades: { checkNow: async () => undefined, refreshBalance: async () => ({ balance: 1, pending_balance: 0, readAt: 0 }) },
    });
    const { rows } = await checker.check();
    expect(rows.map((r) => [r.kind, r.key, r.state, r.outcomeId])).toEqual(free.map((a) => ['listing', a.asset_id, 'unknown_outcome', outcome?.id]));
    expect(rows[0]?.reason).toMatch(/^create_listing may or may not have been applied/);
  });
});
