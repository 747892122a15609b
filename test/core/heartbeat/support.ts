import { createHeartbeat, type HeartbeatOptions, type HeartbeatState } from '../../../src-main/core/heartbeat/heartbeat.ts';
import type { FakeService } from '../scheduler/support/fake-service.ts';
import { fakeStack } from '../scheduler/support/fake-stack.ts';

/** The heartbeat over the real scheduler and a scripted service, on a virtual clock. */

export const MIN = 60_000;
export const LINKED = ['76561198000000002', '76561198000000003'];

export function setup(options: { intervalMs?: number; linked?: string[]; serviceClock?: HeartbeatOptions['serviceClock'] } = {}) {
  const { clock, service, scheduler } = fakeStack();
  const linked = options.linked ?? LINKED;
  const heartbeat = createHeartbeat({
    scheduler,
    clock,
    linkedAccounts: () => linked,
    random: () => 0.5,
    ...(options.intervalMs ? { intervalMs: options.intervalMs } : {}),
    ...(options.serviceClock ? { serviceClock: options.serviceClock } : {}),
  });
  const states: HeartbeatState[] = [];
  heartbeat.on('state', (s) => states.push(s));
  return { clock, service, scheduler, heartbeat, states };
}

export const beats = (service: FakeService) => service.log.filter((r) => r.endpoint === 'set_user_agent');

/** Largest gap between successful beats as the server saw them, and from the last one to `end`. */
export function longestUnmarked(service: FakeService, start: number, end: number): number {
  const ok = beats(service).filter((r) => r.status === 200).map((r) => r.stampAt);
  let worst = 0;
  let prev = start;
  for (const at of [...ok, end]) {
    worst = Math.max(worst, at - prev);
    prev = at;
  }
  return worst;
}
