import type { BuyOrderTrade, MarketTrade } from '../../../src-shared/trades.ts';

const DAY_S = 86_400;

/** A market trade as the client hands it over (parsed). */
export function marketTrade(id: string, status: string, partnerAgeDays = 400, nowMs = Date.UTC(2025, 0, 6, 9)): MarketTrade {
  const now = Math.floor(nowMs / 1000);
  return {
    user_id: '76561198000000001',
    trade_id: id,
    timestamp: now - 60,
    status,
    total: 1_250,
    items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 1_250, quality: 'Unique', image_url: '1', particle_url: '' }],
    trade_type: 'market',
    raw_status: 'SENT',
    buyer_id: '76561198000000009',
    supplier_id: '76561198000000001',
    buyer_steam_creation_time: now - partnerAgeDays * DAY_S,
    supplier_steam_creation_time: now - 3_000 * DAY_S,
    partner_steam_creation_time: now - partnerAgeDays * DAY_S,
    verification_code: null,
    name_tax_reduction: false,
  };
}

/** A buy-order trade as the client hands it over (parsed). */
export function buyOrderTrade(id: string, status: string, partnerAgeDays = 400, nowMs = Date.UTC(2025, 0, 6, 9)): BuyOrderTrade {
  const { name_tax_reduction: _drop, ...common } = marketTrade(id, status, partnerAgeDays, nowMs);
  return {
    ...common,
    trade_type: 'buy_order',
    raw_status: status === 'confirmation_required' ? 'CONFIRMATION_REQUIRED' : 'SENT',
    items: common.items.map((item) => ({ ...item, particle_url: null })),
    supplier_linked_account: null,
  };
}
