import { describe, expect, it } from 'vitest';
import { deskStackFixture } from './desk-stack.ts';

const start = deskStackFixture();

describe('fault suite: a refusal that names the asset, not the item index', () => {
  it('takes that item out at once: one extra request, not a halving down to it', async () => {
    const { sandbox, ws, ready } = await start({ scale: 300, faults: { refusalStyle: 'message' } });
    await ready();
    const assets = sandbox.admin.inventory().slice(0, 100);
    const stale = assets[63]?.asset_id ?? '';
    // Traded away on the platform after the draft was made: the service refuses any batch naming it.
    sandbox.admin.takeAsset(stale);
    const { id } = ws.drafts.create('one stale asset');
    ws.drafts.addChanges(id, assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })));

    const final = await ws.apply.apply(id).done;

    expect(final).toMatchObject({ itemsDone: 99, itemsFailed: 1 });
    const creates = sandbox.log.requests.filter((r) => r.endpoint === 'create_listing').map((r) => [r.status, r.itemCount]);
    expect(creates).toEqual([[400, 100], [200, 99]]);
    const failed = ws.drafts.entries(id).filter((e) => e.status === 'failed');
    expect(failed.map((e) => e.target)).toEqual([`L:${stale}`]);
    expect(failed[0]?.error?.message).toContain(`asset ${stale} has left the inventory`);
  });

  it('reads `items[3]` the same as `items.3.`', async () => {
    const { sandbox, ws, ready } = await start({ scale: 300, faults: { refusalStyle: 'bracket' } });
    await ready();
    const assets = sandbox.admin.inventory().slice(0, 40);
    sandbox.admin.takeAsset(assets[3]?.asset_id ?? '');
    const { id } = ws.drafts.create('bracket');
    ws.drafts.addChanges(id, assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 250, promoted: 0 })));
    await ws.apply.apply(id).done;
    const creates = sandbox.log.requests.filter((r) => r.endpoint === 'create_listing').map((r) => [r.status, r.itemCount]);
    expect(creates).toEqual([[400, 40], [200, 39]]);
  });
});
