import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { createHeartbeat } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { createScheduler } from '../../../src-main/core/scheduler/scheduler.ts';
import type { RequestSender } from '../../../src-main/core/scheduler/types.ts';
import { createVirtualClock } from '../scheduler/support/virtual-clock.ts';
import { beats, MIN, setup } from './support.ts';

describe('heartbeat against a service that does not answer', () => {
  it('beat now answers within 30 s with a clear error, and the next try is planned', async () => {
    const clock = createVirtualClock();
    const sent: number[] = [];
    // Accepts every request and never answers; like the real client, gives up when its caller aborts.
    const silent: RequestSender = {
      call: (_endpoint, _input, options) => {
        sent.push(clock.now());
        return new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
      },
    };
    const scheduler = createScheduler({ client: silent, clock, random: () => 0.5 });
    const heartbeat = createHeartbeat({ scheduler, clock, linkedAccounts: () => [], random: () => 0.5 });
    heartbeat.start();
    const t0 = clock.now();
    await clock.run(heartbeat.beatNow());
    expect(clock.now() - t0).toBe(30_000);
    expect(heartbeat.state).toMatchObject({
      status: 'lapsed',
      lastError: { kind: 'network', message: 'set_user_agent: no answer within 30 s (the service did not answer)' },
    });
    expect(heartbeat.state.nextBeatAt).toBeGreaterThan(clock.now());
    expect(sent).toEqual([t0]);
    heartbeat.stop();
  });

  it('shows the first failure at once rather than after the scheduler\'s retries', async () => {
    const { clock, service, heartbeat } = setup();
    heartbeat.start();
    await clock.advance(1_000);
    service.failNext('set_user_agent', () => new ApiError('server', 'down', { status: 503 }), 99);
    // The next beat goes at 5 min 15 s and fails; the one after needs the endpoint's slot a minute later.
    await clock.advance(5.5 * MIN);
    expect(beats(service).filter((r) => r.status === 503)).toHaveLength(1);
    expect(heartbeat.state).toMatchObject({ status: 'expiring', lastError: { kind: 'server' } });
  });

  it('counts a beat’s 30 s from when it is sent: a second beat that waits for the one slot a minute succeeds', async () => {
    // The linked accounts arrive after the first beat, as the accounts read at start finds them.
    const linked: string[] = [];
    const { clock, service, heartbeat, states } = setup({ linked });
    heartbeat.start();
    await clock.advance(1_000);
    expect(beats(service).map((r) => r.status)).toEqual([200]);
    linked.push('76561198000000002');
    const second = heartbeat.beatNow();
    await clock.run(second, 2 * MIN);
    const [first, then] = beats(service);
    expect(then?.status).toBe(200);
    // It went out when the endpoint's minute allowed, long after 30 s of waiting.
    expect((then?.sentAt ?? 0) - (first?.sentAt ?? 0)).toBeGreaterThanOrEqual(MIN);
    expect(states.filter((s) => s.lastError !== null || s.status === 'expiring')).toEqual([]);
    expect(heartbeat.state).toMatchObject({ status: 'active', lastError: null });
    heartbeat.stop();
  });
});
