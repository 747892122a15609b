import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { EXPIRY_MARGIN_MS } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { packTasks } from '../../../src-main/core/scheduler/pack.ts';
import { beats, LINKED, longestUnmarked, MIN, setup } from './support.ts';

describe('heartbeat', () => {
  it('beats on start with every linked account, then every 5 minutes plus jitter', async () => {
    const { clock, service, heartbeat } = setup();
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(1_000);
    expect(beats(service)).toHaveLength(1);
    expect(beats(service)[0]?.input).toEqual({ multiaccounts: LINKED });
    expect(heartbeat.state).toMatchObject({ status: 'active', lastBeatAt: t0, accounts: LINKED, lastError: null });
    // The service answers in whole seconds: stamped 100 ms in, it says t0 + 600 s.
    expect(heartbeat.state.refreshAt).toBe(t0 + 600_000);
    expect(heartbeat.state.nextBeatAt).toBe(t0 + 5 * MIN + 15_000);
    await clock.advance(30 * MIN);
    const sent = beats(service).map((r) => r.sentAt - t0);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5].map((n) => n * (5 * MIN + 15_000)));
  });

  it('names no linked accounts when none are enabled', async () => {
    const { clock, service, heartbeat } = setup({ linked: [] });
    heartbeat.start();
    await clock.advance(1_000);
    expect(beats(service)[0]?.input).toEqual({});
  });

  it('plans every beat well inside the mark, even with a long interval', async () => {
    const { clock, heartbeat } = setup({ intervalMs: 9.5 * MIN });
    heartbeat.start();
    await clock.advance(1_000);
    const { refreshAt, nextBeatAt } = heartbeat.state;
    expect((refreshAt ?? 0) - (nextBeatAt ?? 0)).toBe(EXPIRY_MARGIN_MS);
  });

  it('stays on schedule while a 10,000-item bulk job runs', async () => {
    const { clock, service, scheduler, heartbeat, states } = setup();
    const t0 = clock.now();
    const items = Array.from({ length: 10_000 }, (_, i) => ({ listing_id: `L${i}`, price: 100 + i, promoted: 0 as const }));
    const job = scheduler.startJob(packTasks('edit_listing', items));
    heartbeat.start();
    const planned: number[] = [t0];
    heartbeat.on('state', (s) => {
      if (s.nextBeatAt !== null && planned.at(-1) !== s.nextBeatAt) planned.push(s.nextBeatAt);
    });
    await clock.run(job.done);
    const end = clock.now();
    expect(end - t0).toBeGreaterThan(19 * MIN);
    const sent = beats(service).map((r) => r.sentAt);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    // Every beat left exactly when planned: the bulk job never delayed one.
    sent.forEach((at, i) => expect(at).toBe(planned[i]));
    expect(longestUnmarked(service, t0, end)).toBeLessThan(6 * MIN);
    expect(states.some((s) => s.status === 'lapsed' && s.lastBeatAt !== null)).toBe(false);
    expect(service.log.filter((r) => r.status === 429)).toEqual([]);
  });

  it('retries a failed beat so that it still lands before the mark runs out', async () => {
    const { clock, service, heartbeat, states } = setup();
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(1_000);
    service.failNext('set_user_agent', () => new ApiError('server', 'down', { status: 503 }), 3);
    await clock.advance(10 * MIN);
    const ok = beats(service).filter((r) => r.status === 200);
    expect(ok).toHaveLength(2);
    // Three failures a minute apart (the endpoint allows 1/min), then success, all before the first mark ends.
    expect((ok[1]?.stampAt ?? Infinity) < t0 + 600_000).toBe(true);
    const seen = states.map((s) => s.status);
    expect(seen).toContain('expiring');
    expect(seen).not.toContain('off');
    expect(states.filter((s) => s.lastBeatAt !== null).some((s) => s.status === 'lapsed')).toBe(false);
    expect(heartbeat.state.status).toBe('active');
  });

  it('shows the error, lapses when beats keep failing, and recovers', async () => {
    const { clock, service, heartbeat } = setup();
    const t0 = clock.now();
    heartbeat.start();
    await clock.advance(1_000);
    service.failNext('set_user_agent', () => new ApiError('network', 'offline'), 1_000);
    await clock.advance(8 * MIN);
    // Still retrying inside the scheduler, one try a minute; the mark ends in under 3 minutes.
    expect(heartbeat.state.status).toBe('expiring');
    await clock.advance(3 * MIN);
    expect(clock.now()).toBeGreaterThan(t0 + 600_000);
    expect(heartbeat.state).toMatchObject({ status: 'lapsed', lastError: { kind: 'network' } });
    service.clearFailures();
    await clock.advance(3 * MIN);
    expect(heartbeat.state).toMatchObject({ status: 'active', lastError: null });
  });

  it('beats at once on beatNow (resume, back online)', async () => {
    const { clock, service, heartbeat } = setup();
    heartbeat.start();
    await clock.advance(2 * MIN);
    const at = clock.now();
    await clock.run(heartbeat.beatNow());
    expect(beats(service).map((r) => r.sentAt)).toEqual([at - 2 * MIN, at]);
    expect(heartbeat.state.lastBeatAt).toBe(at);
    expect(heartbeat.state.nextBeatAt).toBe(at + 5 * MIN + 15_000);
  });

  it('can be switched off and on again', async () => {
    const { clock, service, heartbeat } = setup();
    heartbeat.start();
    await clock.advance(1_000);
    heartbeat.stop();
    expect(heartbeat.state).toMatchObject({ status: 'off', nextBeatAt: null });
    await clock.advance(30 * MIN);
    expect(beats(service)).toHaveLength(1);
    await heartbeat.beatNow();
    expect(beats(service)).toHaveLength(1);
    heartbeat.start();
    await clock.advance(1_000);
    expect(beats(service)).toHaveLength(2);
    expect(heartbeat.state.status).toBe('active');
  });

  it('reports an auth failure and keeps trying after the key is replaced', async () => {
    const { clock, service, scheduler, heartbeat } = setup();
    service.failNext('set_user_agent', () => new ApiError('auth', 'revoked', { status: 401 }));
    heartbeat.start();
    await clock.advance(1_000);
    expect(heartbeat.state).toMatchObject({ status: 'lapsed', lastError: { kind: 'auth' } });
    scheduler.unblock();
    await clock.advance(3 * MIN);
    expect(heartbeat.state).toMatchObject({ status: 'active', lastError: null });
    expect(beats(service).filter((r) => r.status === 200)).toHaveLength(1);
  });
});

