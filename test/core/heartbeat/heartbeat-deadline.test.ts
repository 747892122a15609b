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
});
