import type { SerializedApiError } from '../../../src-main/core/api/errors.ts';
import type { BuyOrderTrade, MarketTrade } from '../../../src-shared/trades.ts';
import type { Scheduler } from '../../../src-main/core/scheduler/types.ts';
import type { SeenTradesStore } from '../../../src-main/core/store/watcher-memory.ts';
import { tradeKey } from '../../../src-main/core/trades/trade-diff.ts';
import { createTradeWatcher, type TradeWatcherOptions } from '../../../src-main/core/trades/trade-watcher.ts';
import type { FakeService } from '../scheduler/support/fake-service.ts';
import { fakeStack } from '../scheduler/support/fake-stack.ts';
import type { VirtualClock } from '../scheduler/support/virtual-clock.ts';

/** The trade watcher over the real scheduler and a scripted service, on a virtual clock. */

export const MIN = 60_000;

export interface World {
  clock: VirtualClock;
  service: FakeService;
  scheduler: Scheduler;
  market: MarketTrade[];
  buyOrders: BuyOrderTrade[];
}

export function world(options: Parameters<typeof fakeStack>[0] = {}): World {
  const { clock, service, scheduler } = fakeStack(options);
  const w: World = { clock, service, scheduler, market: [], buyOrders: [] };
  service.respond('load_pending', () => w.market);
  service.respond('load_pending_buy_orders', () => w.buyOrders);
  return w;
}

export function watch(w: World, seen: SeenTradesStore, youngAccountDays?: number, options: Partial<TradeWatcherOptions> = {}) {
  const watcher = createTradeWatcher({ scheduler: w.scheduler, clock: w.clock, seen, ...(youngAccountDays ? { youngAccountDays } : {}), ...options });
  const events = { needsAction: [] as string[], new: [] as string[], changed: [] as string[], gone: [] as string[], errors: [] as SerializedApiError[] };
  watcher.on('needsAction', (ts) => events.needsAction.push(...ts.map((t) => `${tradeKey(t)}=${t.status}`)));
  watcher.on('new', (ts) => events.new.push(...ts.map(tradeKey)));
  watcher.on('changed', (cs) => events.changed.push(...cs.map((c) => `${tradeKey(c.trade)}:${c.previousStatus}->${c.trade.status}`)));
  watcher.on('gone', (gs) => events.gone.push(...gs.map((g) => g.key)));
  watcher.on('error', (e) => events.errors.push(e));
  return { watcher, events };
}

export const sentTimes = (service: FakeService, endpoint: string) => service.log.filter((r) => r.endpoint === endpoint).map((r) => r.sentAt);
