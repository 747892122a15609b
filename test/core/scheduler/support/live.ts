import { createMarketplaceClient, type MarketplaceClient } from '../../../../src-main/core/api/client.ts';
import { ENDPOINTS, GLOBAL_LIMIT_PER_MINUTE, type EndpointName } from '../../../../src-main/core/api/endpoints.ts';
import { scaledClock, type Clock } from '../../../../src-main/core/clock.ts';
import { createScheduler } from '../../../../src-main/core/scheduler/scheduler.ts';
import type { RequestSender, Scheduler } from '../../../../src-main/core/scheduler/types.ts';
import { steppingClock, type SteppingClock } from '../../../support/wall-step.ts';
import { maxInAnyWindow } from './fake-service.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src-main/sandbox/index.ts';

/**
 * The real parts wired as the app wires them: the sandbox over HTTP on
 * loopback, the client, and the scheduler learning from the client's
 * rate-limit hook, all on one scaled clock (with scale S a minute of the
 * service lasts 60/S seconds). The desk's side reads it through a clock
 * whose wall time a test may step (`clock.stepWall`); the sandbox's does not
 * step, and `serviceClock` reads it.
 */
export interface Live {
  /** The desk's clock (client, scheduler, and whatever the test builds on them). */
  clock: SteppingClock;
  /** The simulator's clock: the service's time, which a step of the desk's wall clock does not move. */
  serviceClock: Clock;
  sandbox: Sandbox;
  client: MarketplaceClient;
  scheduler: Scheduler;
  close(): Promise<void>;
}

export interface LiveOptions {
  sandbox?: SandboxOptions;
  /** Sees every request the scheduler hands to the client, when it does (desk's monotonic ms, for lateness measures). */
  onSend?: (endpoint: EndpointName, at: number) => void;
}

export async function startLive(scale: number, options: LiveOptions = {}): Promise<Live> {
  const serviceClock = scaledClock(scale);
  const clock = steppingClock(serviceClock);
  const sandbox = await startSandbox({ clock: serviceClock, tradeSchedule: false, ...options.sandbox });
  const hook: { scheduler?: Scheduler } = {};
  const client = createMarketplaceClient({
    baseUrl: sandbox.url,
    apiKey: async () => sandbox.apiKey,
    onRateLimit: (info) => hook.scheduler?.noteRateLimit(info),
    clock,
  });
  const { onSend } = options;
  const sender: RequestSender = onSend
    ? {
        call: (endpoint, input, callOptions) => {
          onSend(endpoint, clock.monotonic());
          return client.call(endpoint, input, callOptions);
        },
      }
    : client;
  const scheduler = createScheduler({ client: sender, clock });
  hook.scheduler = scheduler;
  return {
    clock,
    serviceClock,
    sandbox,
    client,
    scheduler,
    async close() {
      scheduler.close();
      await client.close();
      await sandbox.close();
    },
  };
}

/**
 * The most requests the sandbox counted in any 60-s span, per endpoint and
 * overall, next to the limits (429s are not counted by the service).
 */
export function worstWindows(sandbox: Sandbox): { scope: EndpointName | 'global'; worst: number; limit: number }[] {
  const counted = sandbox.log.requests.filter((r) => r.status !== 429);
  const byScope = new Map<EndpointName | 'global', number[]>([['global', counted.map((r) => r.at)]]);
  for (const r of counted) {
    if (r.endpoint) byScope.set(r.endpoint, [...(byScope.get(r.endpoint) ?? []), r.at]);
  }
  return [...byScope].map(([scope, stamps]) => ({
    scope,
    worst: maxInAnyWindow(stamps),
    limit: scope === 'global' ? GLOBAL_LIMIT_PER_MINUTE : ENDPOINTS[scope].perMinute,
  }));
}
