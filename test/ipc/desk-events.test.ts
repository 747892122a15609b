import { describe, expect, it } from 'vitest';
import type { ChannelOutput, EventName, EventPayload } from '../../src-shared/contract.ts';
import { until } from '../support/until.ts';
import { routerDeskFixture } from '../support/live-desk.ts';

/** Main's changes pushed on the bridge: a desk in live mode against the simulator, behind the app's router. */

const open = routerDeskFixture('desk-events-');
// A minute of the service lasts 0.2 s.
const liveDesk = () => open({ scale: 300, sandbox: { seed: 12, tradeSchedule: false }, settings: { refuseUnautomatedPosts: false } });

const pushed = (events: Array<{ event: EventName; payload: unknown }>) =>
  events.filter((e) => e.event === 'activity:added').map((e) => e.payload as EventPayload<'activity:added'>);

describe('activity on the bridge', () => {
  it('pushes the entries the activity log gains, stamped, ending as activity:list shows them with their outcome', async () => {
    const { router, desk: d, service: s, events } = await liveDesk();
    const ws = d.workspace();
    const free = s.admin.inventory().slice(0, 150);
    const { id } = ws.drafts.create('two batches');
    ws.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })));
    await ws.apply.apply(id).done;

    const listed = await router.invoke('activity:list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const entries = listed.value as ChannelOutput<'activity:list'>;
    expect(entries.map((e) => [e.endpoint, e.itemCount, e.outcome])).toEqual([['create_listing', 50, 'done'], ['create_listing', 100, 'done']]);
    // The newest push of each entry says what activity:list says.
    await until('both outcomes pushed', () => pushed(events).filter((p) => p.outcome === 'done').length === 2);
    const newest = new Map(pushed(events).map((p) => [p.id, p]));
    for (const entry of entries) expect(newest.get(entry.id)).toMatchObject(entry);
    // Each push carries the activity stamp, never going back.
    const stamps = pushed(events).map((p) => p.stamp);
    expect(stamps.every((st, i) => i === 0 || st >= (stamps[i - 1] ?? 0))).toBe(true);
  });

  it('bounds a burst: at most 200 entries a push, the newest, in order', async () => {
    const { desk: d, events } = await liveDesk();
    const ws = d.workspace();
    const before = pushed(events).length;
    for (let i = 0; i < 450; i++) {
      ws.repos.activity.recordNote({ endpoint: 'load_pending', account: null, targets: [`L:${i}`], note: `sold in trade ${i}` });
    }
    await until('the burst pushed', () => pushed(events).length > before);
    await new Promise((r) => setTimeout(r, 400));
    const burst = pushed(events).slice(before);
    expect(burst.length).toBeLessThanOrEqual(200);
    expect(burst.at(-1)?.message).toMatch(/sold in trade 449/);
    // Oldest first, so a screen that puts each at the top ends with the newest there.
    const ids = burst.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(burst.map((p) => p.stamp)).size).toBe(1);
  });
});
