import { describe, expect, it } from 'vitest';
import { beats, MIN, setup } from './support.ts';

describe('heartbeat interval changed live', () => {
  it('re-plans the next beat from the last one, sending nothing of its own', async () => {
    const { clock, service, heartbeat } = setup();
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(MIN);
    expect(heartbeat.state.nextBeatAt).toBe(t0 + 5 * MIN + 15_000);
    heartbeat.setIntervalMs(7 * MIN);
    // Still well inside the mark: 7 min + jitter, but never later than 3 minutes before it ends.
    expect(heartbeat.state.nextBeatAt).toBe(t0 + 7 * MIN);
    await clock.advance(3 * MIN);
    expect(beats(service)).toHaveLength(1);
    await clock.advance(4 * MIN);
    expect(beats(service).map((r) => r.sentAt - t0)).toEqual([0, 7 * MIN]);
  });

  it('beats at once only when the new interval makes the beat due already', async () => {
    const { clock, service, heartbeat } = setup({ intervalMs: 9 * MIN });
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(6 * MIN);
    expect(beats(service)).toHaveLength(1);
    heartbeat.setIntervalMs(5 * MIN);
    await clock.advance(1_000);
    expect(beats(service).map((r) => r.sentAt - t0)).toEqual([0, 6 * MIN]);
    expect(heartbeat.state.nextBeatAt).toBe(t0 + 11 * MIN + 15_000);
  });

  it('changes nothing while switched off', async () => {
    const { clock, service, heartbeat } = setup();
    heartbeat.setIntervalMs(6 * MIN);
    await clock.advance(30 * MIN);
    expect(beats(service)).toEqual([]);
    expect(heartbeat.state.nextBeatAt).toBeNull();
  });
});
