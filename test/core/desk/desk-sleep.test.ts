import { expect, it } from 'vitest';
import { liveDeskFixture } from '../../support/live-desk.ts';
import { until } from '../../support/until.ts';

const start = liveDeskFixture();
const MIN = 60_000;

/**
 * A laptop closed overnight: Node's monotonic clock and timers stand still
 * while the wall clock counts the night, so the next beat planned in
 * monotonic time would come minutes after the service let the mark lapse.
 * The desk notices the wall clock running ahead and beats at once, without
 * the OS's resume event (a server shell has none).
 */
it('beats within seconds after the wall clock ran hours ahead of the monotonic clock, not at the next planned beat', async () => {
  // A minute lasts a second.
  const { clock, serviceClock, sandbox, desk } = await start(60);
  const beats = () => sandbox.log.requests.filter((r) => r.endpoint === 'set_user_agent');
  await until('the first beat', () => beats().length >= 1 && desk.workspace().heartbeat.state.status === 'active', 5_000);
  // A new profile learns its linked accounts from the service and beats again for them a minute on.
  await serviceClock.sleep(2 * MIN);
  const before = beats().length;
  const planned = desk.workspace().heartbeat.state.nextBeatAt ?? 0;

  clock.stepWall(8 * 60 * MIN);
  const woke = clock.now();
  await until('a beat after the sleep', () => beats().length > before, 5_000);
  // Within the watch's 10-s check and the endpoint's slot, long before the beat planned minutes on.
  expect(beats().at(-1)?.status).toBe(200);
  expect(clock.now() - woke).toBeLessThan(75_000);
  expect(planned - (woke - 8 * 60 * MIN)).toBeGreaterThan(2 * MIN);
});
