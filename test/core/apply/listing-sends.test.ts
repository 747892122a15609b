import { describe, expect, it } from 'vitest';
import { createListingSends, TRADE_READ_WAIT_MS } from '../../../src-main/core/apply/listing-sends.ts';
import type { BatchTask } from '../../../src-main/core/scheduler/index.ts';
import { createVirtualClock } from '../scheduler/support/virtual-clock.ts';

const task = (id: string, endpoint: BatchTask['endpoint'] = 'edit_listing'): BatchTask => ({ id, endpoint, input: { items: [] } as never, itemCount: 1 });

/** Resolves to whether `p` settled within a few turns of the event loop. */
async function settles(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
}

describe('listing batches of a run on the wire', () => {
  it('go one at a time per endpoint; other endpoints and other runs do not wait', async () => {
    const sends = createListingSends({ clock: createVirtualClock() });
    expect(await settles(sends.turn(1, task('a')))).toBe(true);
    const second = sends.turn(1, task('b'));
    expect(await settles(second)).toBe(false);
    expect(await settles(sends.turn(1, task('d', 'delete_listing')))).toBe(true);
    expect(await settles(sends.turn(2, task('e')))).toBe(true);
    expect(await settles(sends.turn(1, task('c', 'create_listing')))).toBe(true);
    sends.done('a');
    expect(await settles(second)).toBe(true);
  });

  it('after a refusal said a listing is gone, the next waits for one fresh trade read', async () => {
    const clock = createVirtualClock();
    const reads: { fresh?: boolean }[] = [];
    let answer: () => void = () => undefined;
    const trades = { checkNow: (options?: { fresh?: boolean }) => new Promise<void>((resolve) => { reads.push(options ?? {}); answer = resolve; }) };
    const sends = createListingSends({ clock, trades });
    await sends.turn(1, task('a'));
    const next = sends.turn(1, task('b'));
    sends.readTrades();
    sends.readTrades();
    sends.done('a');
    expect(await settles(next)).toBe(false);
    expect(reads).toEqual([{ fresh: true }]);
    answer();
    expect(await settles(next)).toBe(true);
  });

  it('does not wait for a read that never answers longer than its bound', async () => {
    const clock = createVirtualClock();
    const sends = createListingSends({ clock, trades: { checkNow: () => new Promise<void>(() => undefined) } });
    sends.readTrades();
    const waiting = sends.turn(1, task('a'));
    expect(await settles(waiting)).toBe(false);
    await clock.advance(TRADE_READ_WAIT_MS);
    expect(await settles(waiting)).toBe(true);
  });
});
