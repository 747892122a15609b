import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { RECORD_PART } from '../../../src-main/core/history/record-parts.ts';
import { createTradeHistory } from '../../../src-main/core/history/trade-history.ts';
import { createLedgerSales } from '../../../src-main/core/trades/ledger-sales.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { tradeKey } from '../../../src-main/core/trades/trade-diff.ts';
import { createTradeRecording } from '../../../src-main/core/trades/trade-recording.ts';
import { createTradeWatcher } from '../../../src-main/core/trades/trade-watcher.ts';
import type { MarketTrade } from '../../../src-shared/trades.ts';
import { liveFixture } from '../scheduler/support/live-fixture.ts';
import { MAIN, tempStore, type TempStore } from '../store/temp-store.ts';
import { marketTrade } from './fixtures.ts';

/**
 * Each load is kept as the pending list, the listings it sold marked in the
 * ledger, and History, a part at a time, in the order the watcher saw them;
 * the load ends once it is kept.
 */

const T0 = Date.UTC(2025, 0, 6, 9);
let t: TempStore | null = null;
afterEach(() => {
  t?.dispose();
  t = null;
});

const startLive = liveFixture(600);

function desk(clock: Clock = { now: () => T0 } as Clock, main = MAIN) {
  t = tempStore({ clock });
  const { store, repos } = t;
  if (main !== MAIN) repos.accounts.upsert({ account_id: main, kind: 'linked' });
  repos.listings.upsertMany([{ asset_id: '555', listing_id: 'L555', sku: '378;6', price: 1_250, promoted: 0, game: '440', account: main }]);
  let turns = 0;
  const turn = () => new Promise<void>((resolve) => {
    turns += 1;
    setImmediate(resolve);
  });
  const sales = createLedgerSales({ store, repos, ownIds: () => [MAIN, main] });
  const history = createTradeHistory({ store, repos, ownIds: () => [MAIN, main], turn });
  const recording = createTradeRecording({ store, repos, sales, history, turn });
  return { store, repos, history, recording, turns: () => turns };
}

const trades = (n: number, from = 0): MarketTrade[] => Array.from({ length: n }, (_, i) => ({ ...marketTrade(String(from + i), 'Action Required'), total: 1_250 }));
const historyRow = (id: string) => t?.store.db.prepare('SELECT ending, sold_assets FROM trade_history WHERE trade_id = ?').get(id);

describe('recording what the watcher saw', () => {
  it('keeps a load of thousands as the pending list, the ledger and History, a part at a time', async () => {
    const d = desk();
    const load = trades(3 * RECORD_PART + 10);
    await d.recording.load({ trades: load, gone: [], listedAt: T0, at: T0 });
    // The pending list, the ledger and the history, a turn after each part of each.
    expect(d.turns()).toBeGreaterThanOrEqual(2 * 4);
    expect(d.repos.trades.pending()).toHaveLength(load.length);
    // The first sale took the listing: the ledger marked it before History asked which listings the sale took.
    expect(d.repos.listings.get('555')).toMatchObject({ state: 'sold_in_trade', trade_id: '0' });
    expect(historyRow('0')).toEqual({ ending: 'pending', sold_assets: '["555"]' });

    // The next load lists ten of them: the rest leave the pending list (a part at a time), the ledger and History.
    const kept = load.slice(0, 10);
    const gone = load.slice(10).concat(load.slice(0, 1)).map((x) => ({ key: tradeKey(x), tradeType: x.trade_type, tradeId: x.trade_id, lastStatus: x.status }));
    await d.recording.load({ trades: kept.slice(1), gone, listedAt: T0 + 60_000, at: T0 + 60_000 });
    expect(d.repos.trades.pending().map((p) => p.trade_id).sort()).toEqual(kept.slice(1).map((x) => x.trade_id).sort());
    expect(d.repos.listings.get('555')).toMatchObject({ state: 'sold', trade_id: '0' });
    expect(historyRow('0')).toEqual({ ending: 'left', sold_assets: '["555"]' });
    expect(historyRow(String(3 * RECORD_PART))).toMatchObject({ ending: 'left' });
  });

  it('ends a load only once it is kept: whoever waits for one finds its sale in the ledger and History', async () => {
    const { sandbox, scheduler, clock } = await startLive();
    const d = desk(clock, sandbox.accounts.main);
    const watcher = createTradeWatcher({ scheduler, clock, seen: createMemorySeenTradesStore(), record: (load) => d.recording.load(load) });
    sandbox.admin.addTrade({
      trade_type: 'market', trade_id: '7001', supplier_id: sandbox.accounts.main, status: 'Action Required', total: 1_250,
      items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 1_250, quality: 'Unique', image_url: '', particle_url: '' }],
    });
    await watcher.checkNow();
    expect(d.repos.listings.get('555')).toMatchObject({ state: 'sold_in_trade', trade_id: '7001' });
    expect(historyRow('7001')).toEqual({ ending: 'pending', sold_assets: '["555"]' });
  });
});
