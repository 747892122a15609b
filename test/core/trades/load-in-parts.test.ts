import { afterEach, describe, expect, it } from 'vitest';
import { SEEN_PART } from '../../../src-main/core/store/trades-repo.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { tradeKey, WATCH_PART } from '../../../src-main/core/trades/trade-diff.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';
import { buyOrderTrade, marketTrade } from './fixtures.ts';
import { watch, world } from './support.ts';

/**
 * A load of thousands of trades is taken in, told apart from the seen set
 * and announced WATCH_PART trades a step, and the seen set is saved
 * SEEN_PART trades a step, each a turn of the event loop apart, as the
 * recording that follows is; the trader is told exactly what one step
 * would have told, and a save cut short between its parts leaves the saved
 * set as it was. Counted in turns, never timed.
 */

function countingTurns() {
  const counter = { turns: 0, turn: async () => void (counter.turns += 1) };
  return counter;
}

/** The turns between the steps of `n` items taken `size` a step. */
const between = (n: number, size: number) => Math.max(0, Math.ceil(n / size) - 1);

describe('the trade watcher, with a load of thousands of trades', () => {
  it('takes it in, tells it from the seen set and announces it a part a step, telling what one step would', async () => {
    const w = world();
    const counter = countingTurns();
    const { watcher, events } = watch(w, createMemorySeenTradesStore(), undefined, { turn: counter.turn });
    w.market = Array.from({ length: 5_000 }, (_, i) => marketTrade(`m${i}`, i % 2 === 0 ? 'Action Required' : 'Sent'));
    w.buyOrders = Array.from({ length: 1_000 }, (_, i) => buyOrderTrade(`b${i}`, 'Waiting for seller'));
    await w.clock.run(watcher.checkNow());
    // Taken in (6,000), told apart (6,000 listed, none seen before), announced (2,500 wait for the trader).
    expect(counter.turns).toBe(between(6_000, WATCH_PART) + between(6_000, WATCH_PART) + between(2_500, WATCH_PART));
    expect(events.new).toEqual([...w.market, ...w.buyOrders].map(tradeKey));
    expect(events.needsAction).toEqual(w.market.filter((_, i) => i % 2 === 0).map((t) => `${tradeKey(t)}=Action Required`));
    expect(watcher.trades()).toHaveLength(6_000);

    // A thousand gone, five hundred changed (now waiting for the trader), two hundred new.
    counter.turns = 0;
    events.new.length = 0;
    events.needsAction.length = 0;
    const added = Array.from({ length: 200 }, (_, i) => marketTrade(`m${5_000 + i}`, i % 2 === 0 ? 'Action Required' : 'Sent'));
    w.market = [...w.market.slice(0, 4_000), ...added];
    w.buyOrders = w.buyOrders.map((t, i) => (i < 500 ? buyOrderTrade(t.trade_id, 'Action required') : t));
    await w.clock.advance(60_000);
    await w.clock.run(watcher.checkNow());
    expect(counter.turns).toBe(between(5_200, WATCH_PART) + between(5_200 + 6_000, WATCH_PART) + between(600, WATCH_PART));
    expect(events.new).toEqual(added.map(tradeKey));
    expect(events.gone).toEqual(Array.from({ length: 1_000 }, (_, i) => `market:m${4_000 + i}`));
    expect(events.changed).toEqual(Array.from({ length: 500 }, (_, i) => `buy_order:b${i}:Waiting for seller->Action required`));
    expect(events.needsAction).toEqual([
      ...added.filter((_, i) => i % 2 === 0).map((t) => `${tradeKey(t)}=Action Required`),
      ...w.buyOrders.slice(0, 500).map((t) => `${tradeKey(t)}=Action required`),
    ]);
    expect(watcher.trades()).toHaveLength(5_200);
  });
});

describe('the seen set of thousands of trades, saved in the profile', () => {
  let t: TempStore | null = null;
  afterEach(() => {
    t?.dispose();
    t = null;
  });

  const seenSet = (n: number, status: (i: number) => string, from = 0) =>
    new Map(Array.from({ length: n }, (_, i) => [`market:${from + i}`, status(from + i)] as const));

  it(`is written SEEN_PART trades a step and then replaces the saved set whole`, async () => {
    t = tempStore();
    const { seen } = t.repos.trades;
    const counter = countingTurns();
    const first = seenSet(5_000, () => 'Sent');
    await seen.save(first, counter.turn);
    expect(counter.turns).toBe(between(5_000, SEEN_PART));
    expect(await seen.load()).toEqual(first);

    // Some gone, some with another status, some new: the saved set is the new one, no more, no less.
    const next = new Map([...seenSet(3_000, (i) => (i % 7 === 0 ? 'Action Required' : 'Sent'), 1_000), ...seenSet(500, () => 'Sent', 9_000)]);
    await seen.save(next, counter.turn);
    expect(await seen.load()).toEqual(next);
    t.reopen();
    expect(await t.repos.trades.seen.load()).toEqual(next);
  });

  it('cut short between its parts, leaves the saved set as it was; the next save keeps nothing of it', async () => {
    t = tempStore();
    const { seen } = t.repos.trades;
    const saved = seenSet(3_000, () => 'Sent');
    await seen.save(saved);
    const cut = async () => {
      throw new Error('the desk closed');
    };
    await expect(seen.save(seenSet(5_000, () => 'Action Required', 2_000), cut)).rejects.toThrow('the desk closed');
    expect(await seen.load()).toEqual(saved);

    const small = seenSet(10, () => 'Sent', 100);
    await seen.save(small);
    expect(await seen.load()).toEqual(small);
  });

  it('saves one set after the other when asked twice at once: the later one is kept', async () => {
    t = tempStore();
    const { seen } = t.repos.trades;
    const earlier = seenSet(4_500, () => 'Sent');
    const later = seenSet(4_500, () => 'Action Required', 1);
    await Promise.all([seen.save(earlier), seen.save(later)]);
    expect(await seen.load()).toEqual(later);
  });
});
