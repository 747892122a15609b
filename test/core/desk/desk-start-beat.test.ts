import { describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { createDesk } from '../../../src-main/core/desk/desk.ts';
import type { HeartbeatState } from '../../../src-main/core/heartbeat/heartbeat.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';
import { until } from '../../support/until.ts';
import { deskTestScope } from './desk-fixture.ts';

const { opened, tempDir } = deskTestScope('desk-beat-');
const MIN = 60_000;

/**
 * The heartbeat from the first moments of a start, against the simulator with
 * its one-a-minute limit on set_user_agent. A minute lasts half a second here.
 */
describe('the heartbeat at start', () => {
  it('marks every account without a failed beat, on a new profile and on every start after', async () => {
    const clock = scaledClock(120);
    const service = await startSandbox({ clock, seed: 5, inventorySize: 10, tradeSchedule: false });
    opened.push(service);
    const secrets = memoryKeychain();
    const dataDir = tempDir();
    const everyone = [service.accounts.main, ...service.accounts.linked];
    const beatsSince = (t0: number) => service.log.requests.filter((r) => r.endpoint === 'set_user_agent' && r.at >= t0);

    for (const start of ['first', 'second', 'third']) {
      const t0 = clock.now();
      const desk = await createDesk({ dataDir, secrets, clock, version: 'test', initialSettings: { mode: 'live', serviceUrl: service.url } });
      const states: HeartbeatState[] = [];
      desk.workspace().heartbeat.on('state', (s) => states.push(s));
      if (start === 'first') await desk.keys.set(service.apiKey);
      await until(`every account automated after the ${start} start`, () => everyone.every((a) => service.admin.userAgent(a).automated), 5_000);
      // Three service minutes: room for a retry or a second beat to show.
      await clock.sleep(3 * MIN);
      await desk.close();

      const failed = states.filter((s) => s.lastError !== null || s.status === 'expiring');
      expect(failed.map((s) => `${s.status}: ${s.lastError?.message ?? ""}`), `${start} start`).toEqual([]);
      expect(beatsSince(t0).every((r) => r.status === 200), `${start} start`).toBe(true);
      // A new profile learns its linked accounts from the service: they join in a second beat. After that
      // the stored list names them all in the first beat, and no second one is needed.
      expect(beatsSince(t0).length, `${start} start`).toBe(start === 'first' ? 2 : 1);
    }
  });

  it('sends nothing to the service before its services are let start, and beats at once after', async () => {
    const clock = scaledClock(120);
    const service = await startSandbox({ clock, seed: 6, inventorySize: 10, tradeSchedule: false });
    opened.push(service);
    const secrets = memoryKeychain();
    await secrets.set('api-key:default', service.apiKey);
    let letStart: () => void = () => undefined;
    const servicesAfter = new Promise<void>((resolve) => (letStart = resolve));
    const desk = await createDesk({
      dataDir: tempDir(), secrets, clock, version: 'test', initialSettings: { mode: 'live', serviceUrl: service.url }, servicesAfter,
    });
    try {
      // Two service minutes: a started desk would have beaten and read its trades and accounts by now.
      await clock.sleep(2 * MIN);
      expect(service.log.requests).toEqual([]);
      letStart();
      await until('the first beat', () => service.admin.userAgent(service.accounts.main).automated, 5_000);
    } finally {
      await desk.close();
    }
  });
});

