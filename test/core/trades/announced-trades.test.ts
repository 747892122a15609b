import { afterEach, describe, expect, it } from 'vitest';
import { announce, MAX_ANNOUNCED } from '../../../src-main/core/trades/announced-trades.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';
import { buyOrderTrade, marketTrade } from './fixtures.ts';
import { MIN, watch, world } from './support.ts';

let t: TempStore | undefined;
afterEach(() => {
  t?.dispose();
  t = undefined;
});

describe('trades announced as needing action', () => {
  it('are told once per trade and status while the trade is pending, across a restart too', async () => {
    const w = world();
    t = tempStore({ clock: w.clock });
    const stores = () => ({ announced: t?.repos.trades.announced });
    const first = watch(w, t.repos.trades.seen, undefined, stores());
    w.buyOrders = [buyOrderTrade('b1', 'Action required')];
    await w.clock.run(first.watcher.checkNow());
    // The trader sends the items; the trade now asks for the mobile confirmation.
    w.buyOrders = [buyOrderTrade('b1', 'confirmation_required')];
    await w.clock.advance(MIN);
    await w.clock.run(first.watcher.checkNow());
    expect(first.events.needsAction).toEqual(['buy_order:b1=Action required', 'buy_order:b1=confirmation_required']);

    // Restart, with the profile opened again.
    t.reopen();
    const second = watch(w, t.repos.trades.seen, undefined, stores());
    // The trade goes back to "Action required" (the send did not go through): told once already.
    w.buyOrders = [buyOrderTrade('b1', 'Action required')];
    await w.clock.advance(MIN);
    await w.clock.run(second.watcher.checkNow());
    expect(second.events.changed).toEqual(['buy_order:b1:confirmation_required->Action required']);
    expect(second.events.needsAction).toEqual([]);

    // Once the trade has left the list, a trade of that ID is news again.
    w.buyOrders = [];
    await w.clock.advance(MIN);
    await w.clock.run(second.watcher.checkNow());
    w.buyOrders = [buyOrderTrade('b1', 'Action required')];
    await w.clock.advance(MIN);
    await w.clock.run(second.watcher.checkNow());
    expect(second.events.needsAction).toEqual(['buy_order:b1=Action required']);
    expect(await t.repos.trades.announced.load()).toEqual(['buy_order:b1:Action required']);
  });

  it('keeps the memory to the trades still known, and at most MAX_ANNOUNCED of them, the newest', () => {
    const known = (keys: string[]) => new Set(keys);
    const first = announce([], [marketTrade('m1', 'Action Required'), buyOrderTrade('b1', 'Action required')], known(['market:m1', 'buy_order:b1']));
    expect(first.fresh.map((x) => x.trade_id)).toEqual(['m1', 'b1']);
    expect(first.memory).toEqual(['market:m1:Action Required', 'buy_order:b1:Action required']);
    // m1 is gone; b1 is told again about a status already told: nothing fresh.
    const second = announce(first.memory, [buyOrderTrade('b1', 'Action required')], known(['buy_order:b1']));
    expect(second.fresh).toEqual([]);
    expect(second.memory).toEqual(['buy_order:b1:Action required']);

    const many = Array.from({ length: MAX_ANNOUNCED + 5 }, (_, i) => marketTrade(`${i}`, 'Action Required'));
    const bounded = announce([], many, known(many.map((x) => `market:${x.trade_id}`)));
    expect(bounded.fresh).toHaveLength(MAX_ANNOUNCED + 5);
    expect(bounded.memory).toHaveLength(MAX_ANNOUNCED);
    expect(bounded.memory[0]).toBe('market:5:Action Required');
  });
});
