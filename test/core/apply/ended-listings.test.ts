import { describe, expect, it } from 'vitest';
import { applyFixture } from './support.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

const edits = (sandbox: { log: { requests: readonly { endpoint: string | null; status: number; itemCount: number }[] } }) =>
  sandbox.log.requests.filter((r) => r.endpoint === 'edit_listing').map((r) => [r.status, r.itemCount]);

describe('listings the service no longer holds', () => {
  it('an edit refused because the listing is gone marks the row "not on the service"; later plans leave it out', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(10);
    s.adopt(listed);
    const gone = listed[4];
    // The trader deleted it on the website.
    sandbox.admin.removeListing(gone?.listing_id ?? '');
    const first = s.drafts.create('reprice');
    s.drafts.addChanges(first.id, listed.map((l) => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 7 })));
    expect(await s.apply.apply(first.id).done).toMatchObject({ itemsDone: 9, itemsFailed: 1 });
    expect(s.t.repos.listings.get(gone?.asset_id ?? '')).toMatchObject({
      state: 'not_on_service', state_reason: expect.stringMatching(/no listing/),
    });
    expect(edits(sandbox)).toEqual([[400, 10], [200, 9]]);

    // The next apply sends nothing for it, and says why.
    const again = s.drafts.create('reprice again');
    s.drafts.addChanges(again.id, listed.map((l) => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 8 })));
    // (Settled while planning, it is not in the job's counts, like a no-op edit.)
    expect(await s.apply.apply(again.id).done).toMatchObject({ itemsDone: 9 });
    expect(edits(sandbox)).toEqual([[400, 10], [200, 9], [200, 9]]);
    const failed = s.drafts.entries(again.id).filter((e) => e.status === 'failed');
    expect(failed.map((e) => e.target)).toEqual([`L:${gone?.asset_id}`]);
    expect(failed[0]?.error?.message).toMatch(/^not sent: the listing is not on the service/);
    // Retrying the failed one sends nothing either.
    await s.apply.apply(first.id).done;
    expect(edits(sandbox)).toHaveLength(3);

    // Deleting it needs no request: it is off the market already; the row leaves the ledger.
    const clear = s.drafts.create('clear');
    s.drafts.addChanges(clear.id, [{ kind: 'listing.delete', asset_id: gone?.asset_id ?? '' }]);
    await s.apply.apply(clear.id).done;
    expect(s.drafts.entries(clear.id).map((e) => e.status)).toEqual(['done']);
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'delete_listing')).toEqual([]);
    expect(s.t.repos.listings.get(gone?.asset_id ?? '')).toBeNull();
  });

  it('a refusal that the listing is sold marks it sold', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const listed = sandbox.admin.seedListings(3);
    s.adopt(listed);
    sandbox.admin.setListingState(listed[1]?.listing_id ?? '', 'sold');
    const { id } = s.drafts.create('reprice');
    s.drafts.addChanges(id, listed.map((l) => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 6 })));
    await s.apply.apply(id).done;
    expect(s.t.repos.listings.get(listed[1]?.asset_id ?? '')?.state).toBe('sold');
  });
});
