import type { AccountsView, BuyOrderRow, ListingRow, Settings, WatchedTradeView } from '../../src-shared/contract.ts';
import type { Handlers } from './fake-api.ts';

/** Plausible view models for renderer tests; every handler can be overridden. */
export const MAIN = '76561198000000001';
export const LINKED = '76561198000000002';

export const settings: Settings = {
  mode: 'sandbox', serviceUrl: 'https://market.example/', heartbeatEnabled: true, heartbeatIntervalMinutes: 7,
  tradePollSeconds: 60, notificationsEnabled: true, startAtLogin: false, youngAccountDays: 30, theme: 'system',
  refuseUnautomatedPosts: true,
  autoUpdate: true,
};

export const accounts: AccountsView = {
  main: { id64: MAIN, role: 'main', tradeUrl: null, automated: true },
  linked: [{ id64: LINKED, role: 'linked', tradeUrl: null, automated: false }],
  readAt: null,
};

export function listing(i: number, over: Partial<ListingRow> = {}): ListingRow {
  return {
    listing_id: `L${i}`, asset_id: String(1000 + i), sku: `${5000 + (i % 50)};6`, price: 100 + i, promoted: 0, game: '440',
    user_note: '', account: MAIN, state: 'active', updatedAt: 0, ...over,
  };
}

export function buyOrder(i: number, over: Partial<BuyOrderRow> = {}): BuyOrderRow {
  return { sku: `${6000 + i};6`, account: MAIN, price: 300 + i, quantity: 5, active: 1, user_note: '', filled: 0, quantityMayBeCut: false, updatedAt: 0, ...over };
}

export function trade(id: string, over: Partial<WatchedTradeView> = {}): WatchedTradeView {
  return {
    trade_type: 'market', user_id: MAIN, trade_id: id, timestamp: 1_700_000_000, status: 'Waiting for seller', total: 4599,
    items: [{ name: 'Mann Co. Supply Crate Key', sku: '5021;6', quantity: 1, price: 4599, quality: 'Unique', image_url: '', particle_url: '' }],
    raw_status: 'SENT', buyer_id: '76561198999', supplier_id: MAIN, buyer_steam_creation_time: 0, supplier_steam_creation_time: 0,
    partner_steam_creation_time: 0, verification_code: null, name_tax_reduction: false, needsAction: false, partnerAgeDays: 900,
    youngPartner: false, ...over,
  } as WatchedTradeView;
}

/** Handlers for every channel a screen reads at start, returning quiet defaults. */
export function deskHandlers(over: Handlers = {}): Handlers {
  return {
    'app:status': () => ({ mode: 'sandbox', online: true, version: '0.1.0', profile: 'default', serviceUrl: 'http://127.0.0.1:1' }),
    'key:status': () => ({ set: false, last4: null, state: 'none', keychainAvailable: true }),
    'settings:get': () => settings,
    'heartbeat:state': () => ({ status: 'active', refreshAt: null, lastBeatAt: null, nextBeatAt: null, accounts: [], lastError: null }),
    'scheduler:state': () => ({ blocked: null, used: 0, limit: 80, pausedUntil: null }),
    'balance:get': () => null,
    'trades:list': () => [],
    'accounts:list': () => accounts,
    'listings:list': () => [],
    'buyOrders:list': () => [],
    'drafts:list': () => [],
    'drafts:changes': () => [],
    'apply:progress': () => null,
    'apply:unknownOutcomes': () => [],
    'activity:list': () => [],
    ...over,
  };
}
