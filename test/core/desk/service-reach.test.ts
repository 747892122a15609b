import { afterEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, type MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { systemClock, type Clock } from '../../../src-main/core/clock.ts';
import { createReachTracker } from '../../../src-main/core/desk/service-reach.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { rejection } from '../api/test-server.ts';

/**
 * What the desk says of the service's reach follows the answer to the
 * latest request: a request cut mid-body says nothing of a service that has
 * answered a request sent after it.
 */

/** Wall-clock time whose waits (the sandbox's reset delay) end only when the test lets them. */
function gatedClock(): Clock & { release(): void } {
  const waiting: Array<() => void> = [];
  return {
    now: () => systemClock.now(),
    monotonic: () => systemClock.monotonic(),
    sleep: () => new Promise<void>((resolve) => waiting.push(resolve)),
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

describe('the service’s reach', () => {
  let sandbox: Sandbox;
  let client: MarketplaceClient;
  afterEach(async () => {
    await client.close();
    await sandbox.close();
  });

  async function start() {
    const clock = gatedClock();
    sandbox = await startSandbox({ clock, inventorySize: 10, tradeSchedule: false });
    let changes = 0;
    const tracker = createReachTracker(clock, () => (changes += 1));
    const onReach = tracker.listenerForNext();
    tracker.showLatest();
    client = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => sandbox.apiKey, onReach });
    return { clock, tracker, changes: () => changes };
  }

  const answered = async (endpoint: string) => {
    while (!sandbox.log.requests.some((r) => r.endpoint === endpoint)) await new Promise((r) => setTimeout(r, 5));
  };

  it('stays reachable when a request cut mid-body fails after one sent later was answered', async () => {
    const { clock, tracker } = await start();
    sandbox.faults.set({ resetMidBody: { endpoints: ['load_pending'], count: 1, afterMs: 1_000 } });
    const cut = rejection(client.call('load_pending', {}));
    // Half the answer is on its way; a request alongside is answered in full.
    await answered('load_pending');
    await client.call('get_balance', {});
    expect(tracker.current().state).toBe('reachable');
    clock.release();
    expect(await cut).toMatchObject({ kind: 'network' });
    expect(sandbox.log.requests.map((r) => r.faults)).toEqual([['resetMidBody'], []]);
    expect(tracker.current()).toEqual({ state: 'reachable', why: null, since: null });
  });

  it('says the connection was cut when the latest request was cut, and reachable again at the next answer', async () => {
    const { clock, tracker } = await start();
    await client.call('get_balance', {});
    sandbox.faults.set({ resetMidBody: { endpoints: ['load_pending'], count: 1, afterMs: 0 } });
    const cut = rejection(client.call('load_pending', {}));
    await answered('load_pending');
    clock.release();
    await cut;
    expect(tracker.current()).toMatchObject({ state: 'unreachable', why: expect.stringMatching(/the connection was cut/) });
    await client.call('get_balance', {});
    expect(tracker.current().state).toBe('reachable');
  });
});
