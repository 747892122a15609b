import { describe, expect, it } from 'vitest';
import { createHeartbeat } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import { liveFixture } from '../scheduler/support/live-fixture.ts';

// A minute of the service lasts 0.1 s here.
const startLive = liveFixture(600);

describe('heartbeat against the sandbox over HTTP', () => {
  it('keeps the main and linked accounts automated while a bulk job runs', async () => {
    const { sandbox, scheduler, clock } = await startLive();
    const linked = [...sandbox.accounts.linked];
    const heartbeat = createHeartbeat({ scheduler, clock, linkedAccounts: () => linked });
    const listed = sandbox.admin.seedListings(10_000);
    const job = scheduler.startJob(packTasks('edit_listing', listed.map((l) => ({ listing_id: l.listing_id, price: l.price + 1, promoted: 0 as const }))));
    heartbeat.start();
    const notAutomated: number[] = [];
    const sample = setInterval(() => {
      if (heartbeat.state.lastBeatAt === null) return;
      for (const account of [sandbox.accounts.main, ...linked]) {
        if (!sandbox.admin.userAgent(account).automated) notAutomated.push(clock.now());
      }
    }, 5);
    const final = await job.done;
    clearInterval(sample);
    heartbeat.stop();
    expect(final.state).toBe('done');
    const beats = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    expect(beats.length).toBeGreaterThanOrEqual(4);
    expect(beats.every((r) => r.status === 200)).toBe(true);
    expect(notAutomated).toEqual([]);
    expect(heartbeat.state.status).toBe('off');
    expect(sandbox.log.counters.count429).toBe(0);
  });
});
