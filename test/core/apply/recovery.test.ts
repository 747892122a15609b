import { describe, expect, it } from 'vitest';
import { createApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import { applyFixture } from './support.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

const start = applyFixture(600);

describe('recovery after the app stopped mid-apply', () => {
  it('shows a batch journaled as sent as an unknown outcome; delete-and-create-again then lists each asset once', async () => {
    const s = await start();
    const { sandbox, clock } = s.live;
    const listed = sandbox.admin.seedListings(3);
    const free = sandbox.admin.inventory().slice(0, 12);
    s.adopt(listed);
    const { id } = s.drafts.create('interrupted');
    s.drafts.addChanges(id, [
      ...free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 321, promoted: 0 })),
      ...listed.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 4 })),
    ]);
    // The process "dies" right after journaling: requests hang and never reach the service.
    const stuck = createScheduler({ client: { call: () => new Promise<never>(() => undefined) }, clock });
    const dying = createApplyService({ store: s.t.store, repos: s.t.repos, drafts: s.drafts, scheduler: stuck });
    dying.apply(id);
    for (let i = 0; i < 100 && s.t.repos.journal.batches({ states: ['sent'] }).length < 2; i++) await clock.sleep(600);
    expect(s.t.repos.journal.batches({ states: ['sent'] })).toHaveLength(2);
    stuck.close();

    s.restart();
    const { resumed, unknown } = s.apply.recover();
    expect(resumed).toHaveLength(1);
    await resumed[0]?.done;
    expect(unknown.map((u) => [u.endpoint, u.items.length]).sort()).toEqual([['create_listing', 12], ['edit_listing', 3]]);
    expect(sandbox.log.requests.filter((q) => q.endpoint !== null)).toEqual([]);

    for (const u of unknown) s.apply.resolve(u.id, u.endpoint === 'create_listing' ? 'recreate' : 'send_again');
    const final = await s.apply.apply(id).done;
    expect(final).toMatchObject({ itemsFailed: 0, itemsUnknown: 0 });
    expect(s.drafts.entries(id).filter((e) => e.status !== 'done')).toEqual([]);
    // Each delete of a never-created listing was refused (named item): counted as gone, then all 12 created once.
    const creates = sandbox.log.requests.filter((q) => q.endpoint === 'create_listing');
    expect(creates.map((q) => [q.status, q.itemCount])).toEqual([[200, 12]]);
    expect(sandbox.log.requests.filter((q) => q.endpoint === 'delete_listing' && q.status === 400)).toHaveLength(12);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
    const live = new Map(sandbox.admin.listings().map((l) => [l.asset_id, l]));
    for (const row of s.t.repos.listings.all()) expect(live.get(row.asset_id)?.listing_id).toBe(row.listing_id);
    expect(listed.every((l) => live.get(l.asset_id)?.price === l.price + 4)).toBe(true);
  });
});
