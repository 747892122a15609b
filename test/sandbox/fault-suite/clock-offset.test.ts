import { describe, expect, it } from 'vitest';
import type { HeartbeatStatus } from '../../../src-main/core/heartbeat/index.ts';
import { deskStackFixture, MIN } from './desk-stack.ts';

const start = deskStackFixture();
const SHOWN_JITTER_MIN = 3 / 60;

describe('fault suite: the desk clock off the service clock', () => {
  for (const offset of [-15 * MIN, 15 * MIN]) {
    it(`beats every 5–9 minutes and never shows lapsed over an hour with the service ${offset > 0 ? 'ahead' : 'behind'} by 15 min`, async () => {
      const { sandbox, ws, until, ready, wait, clock } = await start({ scale: 300, faults: { clockOffsetMs: offset } });
      const first = await until(() => ws.heartbeat.state.lastBeatAt, 'the first beat');
      const seen = new Set<HeartbeatStatus>();
      const sentAt = [first];
      const off = ws.heartbeat.on('state', (s) => {
        seen.add(s.status);
        if (s.lastBeatAt !== null && s.lastBeatAt !== sentAt.at(-1)) sentAt.push(s.lastBeatAt);
      });
      // The service's own view: the account stays marked as automated all along.
      let unmarked = 0;
      const sample = setInterval(() => {
        if (!sandbox.admin.userAgent().automated) unmarked++;
      }, 5);
      const startedAt = clock.now();
      await wait(60 * MIN);
      off();
      clearInterval(sample);

      const beats = sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
      expect(beats.every((r) => r.status === 200)).toBe(true);
      expect(unmarked).toBe(0);
      // Gaps between beats as the desk sent them (the first request of a run may sit in a new connection a while).
      const gaps = sentAt.slice(1).map((at, i) => (at - (sentAt[i] ?? 0)) / MIN);
      expect(gaps.length).toBeGreaterThanOrEqual(6);
      for (const gap of gaps) {
        // The times shown are wall times read from the monotonic send time at each event: under load two readings
        // a few real milliseconds apart are up to a few seconds apart on this ×300 clock.
        expect(gap).toBeGreaterThanOrEqual(5 - SHOWN_JITTER_MIN);
        expect(gap).toBeLessThanOrEqual(9);
      }
      expect([...seen].filter((s) => s !== 'active')).toEqual([]);
      expect(ws.heartbeat.state.status).toBe('active');
      expect(sandbox.admin.userAgent().automated).toBe(true);
      // The offset is measured from the Date header and shown, to the second.
      expect(Math.abs((ws.heartbeat.state.clockOffsetMs ?? 0) - offset)).toBeLessThan(2_000);
      expect(clock.now() - startedAt).toBeGreaterThanOrEqual(60 * MIN);

      // Posting is allowed: automation is active by the desk's own measure.
      await ready();
      const [asset] = sandbox.admin.inventory();
      const { id } = ws.drafts.create('after an hour');
      ws.drafts.addChanges(id, [{ kind: 'listing.create', asset_id: asset?.asset_id ?? '', price: 300, promoted: 0 }]);
      const final = await ws.apply.apply(id).done;
      expect(final).toMatchObject({ itemsDone: 1 });
    });
  }
});
