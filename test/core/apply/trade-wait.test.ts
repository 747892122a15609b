import { describe, expect, it } from 'vitest';
import type { ApplyProgress } from '../../../src-main/core/apply/apply-run.ts';
import { deskStackFixture } from '../../sandbox/fault-suite/desk-stack.ts';

const start = deskStackFixture();

describe('an apply held by a read of the trade lists', () => {
  it('says why it waits as the wait begins, and its time left covers the wait', async () => {
    // The strict service refuses a batch naming a listing sold elsewhere; the desk then reads the trades (one read a minute).
    const { sandbox, ws, ready, until, clock } = await start({
      scale: 10, faults: { endedListingsUnknown: true }, settings: { tradePollSeconds: 3_600 },
    });
    await ready();
    // The watcher's first read is done: the next may go a minute after it.
    await until(() => ws.trades.checkedAt() !== null, 'the first trade read');
    const listed = sandbox.admin.seedListings(157);
    ws.repos.listings.upsertMany(listed.map((l) => ({
      asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, user_note: '', account: l.account, state: l.state,
    })));
    // Two listings of the first batch sell on the website; the desk is not told.
    sandbox.faults.set({ listingSales: { meanGapMs: 1, limit: 2, among: listed.slice(10, 12).map((l) => l.listing_id) } });
    await until(() => sandbox.admin.sales().length === 2, 'the two sales');
    sandbox.faults.set({ listingSales: undefined });

    const { id } = ws.drafts.create('reprice');
    ws.drafts.addChanges(id, listed.map((l) => ({ kind: 'listing.edit' as const, asset_id: l.asset_id, price: l.price + 1 })));
    const seen: { at: number; p: ApplyProgress }[] = [];
    const off = ws.apply.on('progress', (p) => seen.push({ at: clock.now(), p }));
    const before = sandbox.log.requests.length;
    const final = await ws.apply.apply(id).done;
    off();
    expect(final).toMatchObject({ state: 'done', itemsDone: 155, itemsFailed: 2 });

    const sent = sandbox.log.requests.slice(before);
    const refused = sent.find((r) => r.endpoint === 'edit_listing' && r.status !== 200);
    const read = sent.find((r) => r.endpoint === 'load_pending');
    if (!refused || !read) throw new Error('the apply met no refusal, or read no trades');
    const first = seen.find((e) => e.p.waiting !== undefined);
    if (!first) throw new Error('no progress said the apply waits');
    // Said as the wait began: within a second of the refusal's answer, long before the read could go.
    console.log(`the wait was said ${first.at - refused.at} ms (desk clock) after the refused batch reached the service; the read went ${read.at - refused.at} ms after it`);
    expect(first.at - refused.at).toBeLessThan(1_000);
    expect(first.p.waiting).toMatchObject({ reason: 'trade_read', listings: expect.any(Number) });
    expect(first.p.waiting?.listings).toBeGreaterThanOrEqual(1);
    const readAt = first.p.waiting?.readAt ?? null;
    expect(readAt).not.toBeNull();
    expect(Math.abs((readAt ?? 0) - read.at)).toBeLessThan(2_000);
    // The time left covers the wait for the read.
    expect(first.p.etaMs ?? 0).toBeGreaterThanOrEqual(read.at - first.at);
    // No listing batch went between the refusal and the read.
    expect(sent.filter((r) => r.endpoint === 'edit_listing' && r.at > refused.at && r.at < read.at)).toEqual([]);
    // Once read, the wait is over and no longer said.
    expect(seen.at(-1)?.p.waiting).toBeUndefined();
  }, 60_000);
});
