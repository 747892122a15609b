import type { MarketTrade } from '../../../src-shared/trades.ts';
import type { WatchedTrade } from '../../../src-main/core/trades/trade-watcher.ts';
import { marketTrade } from '../trades/fixtures.ts';

/** A market trade waiting for the trader, as the watcher reports it, with these items. */
export function waitingTrade(id: string, items: MarketTrade['items'], partnerAgeDays = 412): WatchedTrade {
  return { ...marketTrade(id, 'Action Required', partnerAgeDays), items, needsAction: true, partnerAgeDays, youngPartner: partnerAgeDays < 30 };
}

export const item = (name: string, quantity = 1, price = 1_234): MarketTrade['items'][number] =>
  ({ name, sku: '378;6', quantity, price, quality: 'Unique', image_url: '', particle_url: '' });
