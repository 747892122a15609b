import { describe, expect, it } from 'vitest';
import { deskStackFixture } from './desk-stack.ts';

const start = deskStackFixture();

describe('fault suite: a 502 after the service applied a create batch', () => {
  it('makes every item an unknown outcome with its choices: none failed while live, none sent again', async () => {
    // The strict service: a create of an asset already listed is refused, in words that name the asset.
    const { sandbox, ws, ready } = await start({ scale: 300, faults: { refuseDuplicateCreates: true, refusalStyle: 'message' } });
    await ready();
    const assets = sandbox.admin.inventory().slice(0, 100);
    const { id } = ws.drafts.create('hundred creates');
    ws.drafts.addChanges(id, assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 500, promoted: 0 })));
    sandbox.faults.set({ serverErrorAfterProcess: { endpoints: ['create_listing'], count: 1, status: 502 } });

    const final = await ws.apply.apply(id).done;

    expect(final).toMatchObject({ itemsFailed: 0, itemsUnknown: 100, itemsDone: 0 });
    const creates = sandbox.log.requests.filter((r) => r.endpoint === 'create_listing');
    expect(creates.map((r) => r.status)).toEqual([502]);
    // The 100 listings are live on the service; the desk shows each as an unknown outcome, never as failed.
    expect(sandbox.admin.listings().filter((l) => l.state === 'active')).toHaveLength(100);
    expect(ws.drafts.entries(id).map((e) => e.status)).toEqual(Array(100).fill('unknown'));
    const [outcome, ...others] = ws.apply.unknownOutcomes();
    expect(others).toEqual([]);
    expect(outcome?.items).toHaveLength(100);
    expect(outcome?.reason).toMatch(/502/);
    expect(outcome?.choices.map((c) => c.id)).toEqual(['recreate', 'mark_done', 'drop']);

    // A later refusal that says the asset already stands is evidence, shown with the trader's choice.
    const again = ws.drafts.create('one again');
    ws.drafts.addChanges(again.id, [{ kind: 'listing.create', asset_id: assets[0]?.asset_id ?? '', price: 500, promoted: 0 }]);
    await ws.apply.apply(again.id).done;
    const withEvidence = ws.apply.unknownOutcomes()[0];
    expect(withEvidence?.evidence).toEqual([
      expect.objectContaining({ target: `L:${assets[0]?.asset_id}`, message: expect.stringMatching(/already listed/) }),
    ]);
    expect(sandbox.log.counters.duplicateCreates).toBe(0);
  });
});
