import { createScheduler } from '../../../../src-main/core/scheduler/scheduler.ts';
import type { Scheduler } from '../../../../src-main/core/scheduler/types.ts';
import { createFakeService, type FakeService, type FakeServiceOptions } from './fake-service.ts';
import { createVirtualClock, type VirtualClock } from './virtual-clock.ts';

/**
 * The real scheduler over the scripted service on a virtual clock, the
 * scheduler learning from the service's rate notes as it would from the
 * client's hook. Jitter is fixed (`random`, default 0.5) so times are exact.
 */
export function fakeStack(options: { random?: number; latencyMs?: FakeServiceOptions['latencyMs'] } = {}): {
  clock: VirtualClock;
  service: FakeService;
  scheduler: Scheduler;
} {
  const clock = createVirtualClock();
  const hook: { scheduler?: Scheduler } = {};
  const service = createFakeService({
    clock,
    onRateLimit: (n) => hook.scheduler?.noteRateLimit(n),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
  });
  const random = options.random ?? 0.5;
  const scheduler = createScheduler({ client: service, clock, random: () => random });
  hook.scheduler = scheduler;
  return { clock, service, scheduler };
}
