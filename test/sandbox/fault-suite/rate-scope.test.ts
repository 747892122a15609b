import { describe, expect, it } from 'vitest';
import { deskStackFixture, MIN } from './desk-stack.ts';

const start = deskStackFixture();

describe('fault suite: a 429 on create_listing while the heartbeat is due', () => {
  it('pauses only create_listing; the heartbeat beats on time', async () => {
    // This service's X-RateLimit-* describe the global limit on every answer, a 429 of one endpoint included.
    const { sandbox, ws, until, ready, clock } = await start({ scale: 120, faults: { globalRateHeaders: true } });
    await ready();
    const first = await until(() => ws.heartbeat.state.lastBeatAt, 'the first beat');
    const due = ws.heartbeat.state.nextBeatAt ?? 0;
    expect(due - first).toBeGreaterThanOrEqual(5 * MIN);

    // A minute before the beat is due, create_listing is refused with a long Retry-After. (The clock runs
    // 120 times faster: a loaded machine's stall of a few hundred ms stays a small part of the minutes it checks.)
    await until(() => clock.now() >= due - MIN || null, 'a minute before the beat');
    sandbox.faults.set({ storm429: { endpoints: ['create_listing'], retryAfterSec: 600, untilMs: clock.now() + 10 * MIN } });
    const assets = sandbox.admin.inventory().slice(0, 10);
    const { id } = ws.drafts.create('refused for a while');
    ws.drafts.addChanges(id, assets.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 200, promoted: 0 })));
    const handle = ws.apply.apply(id);
    await until(() => sandbox.log.requests.some((r) => r.endpoint === 'create_listing' && r.status === 429) || null, 'the 429');

    await until(() => (ws.heartbeat.state.lastBeatAt ?? 0) > first || null, 'the second beat', 4 * MIN);
    const beats = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    expect(beats.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
    // On time: within half a minute of its plan (a slow machine may add a few seconds of this fast clock),
    // where waiting out create_listing's 600-s Retry-After would make it ten minutes late.
    const onTime = beats.filter((r) => r.at > first + MIN);
    expect(onTime.length).toBeGreaterThanOrEqual(1);
    expect(Math.abs((onTime[0]?.at ?? 0) - due)).toBeLessThan(30_000);
    // Only the refused endpoint waits: other work goes on.
    expect(ws.scheduler.state.pauses.map((p) => p.scope)).toEqual(['create_listing']);
    handle.job.cancel();
    await handle.done;
  });
});
