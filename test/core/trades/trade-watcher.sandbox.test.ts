import { describe, expect, it } from 'vitest';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { createTradeWatcher, type WatchedTrade } from '../../../src-main/core/trades/trade-watcher.ts';
import { liveFixture } from '../scheduler/support/live-fixture.ts';

// A minute of the service lasts 0.1 s here.
const startLive = liveFixture(600);

describe('trade watcher against the sandbox over HTTP', () => {
  it('announces trades that wait for the trader once, in both capitalisations', async () => {
    const { sandbox, scheduler, clock } = await startLive();
    const seen = createMemorySeenTradesStore();
    const watcher = createTradeWatcher({ scheduler, clock, seen, youngAccountDays: 7 });
    const announced: WatchedTrade[] = [];
    watcher.on('needsAction', (ts) => announced.push(...ts));
    expect(watcher.checkedAt()).toBeNull();
    const nowSec = Math.floor(clock.now() / 1000);
    sandbox.admin.addTrade({ trade_type: 'market', trade_id: '9001', status: 'Action Required', partner_steam_creation_time: nowSec - 2 * 86_400 });
    sandbox.admin.addTrade({ trade_type: 'buy_order', trade_id: '9002', status: 'Action required' });
    sandbox.admin.addTrade({ trade_type: 'buy_order', trade_id: '9003', status: 'Waiting for seller' });
    const before = clock.now();
    await watcher.checkNow();
    // When the lists last answered: the Trades screen says "checked 40 s ago" and when the next slot is free.
    expect(watcher.checkedAt()).toBeGreaterThanOrEqual(before);
    await watcher.checkNow();
    expect(announced.map((t) => `${t.trade_type}:${t.trade_id}`).sort()).toEqual(['buy_order:9002', 'market:9001']);
    expect(announced.find((t) => t.trade_id === '9001')).toMatchObject({ youngPartner: true, partnerAgeDays: 2 });
    sandbox.admin.setTradeStatus('9003', 'confirmation_required');
    await watcher.checkNow();
    expect(announced.map((t) => t.trade_id)).toContain('9003');
    expect(announced).toHaveLength(3);
    expect(sandbox.log.counters.count429).toBe(0);
  });
});
