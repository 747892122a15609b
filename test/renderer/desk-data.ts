import type {
  AccountsView, BuyOrderRowView, LedgerRowView, ListingRowView, Settings, WatchedTradeView,
} from '../../src-shared/contract.ts';
import type { Handlers } from './fake-api.ts';

/** Plausible view models for renderer tests; every handler can be overridden. */
export const MAIN = '76561198000000001';
export const LINKED = '76561198000000002';

export const settings: Settings = {
  stamp: 1,
  mode: 'sandbox', serviceUrl: 'https://market.example/', heartbeatEnabled: true, heartbeatIntervalMinutes: 7,
  tradePollSeconds: 60, notificationsEnabled: true, startAtLogin: false, youngAccountDays: 30, theme: 'system',
  refuseUnautomatedPosts: true,
  autoUpdate: true,
  guideDismissed: true,
  priceGuard: { maxDropPercent: 30, floorCents: null, maxRiseMultiple: 10 },
  csvFormat: 'comma',
};

export const accounts: AccountsView = {
  stamp: 1,
  main: { id64: MAIN, role: 'main', tradeUrl: null, automated: true },
  linked: [{ id64: LINKED, role: 'linked', tradeUrl: null, automated: false }],
  readAt: null,
};

const noDraft = { change: null, removedByDeleteAll: false, status: null, problem: null, blocked: null, updatedAt: 0 };

export function listing(i: number, over: Partial<ListingRowView> = {}): ListingRowView {
  const sku = `${5000 + (i % 50)};6`;
  return {
    domain: 'listings', key: String(1000 + i), ...noDraft,
    item: { name: `Item ${i}`, known: true, quality: 'Unique', color: '#FFD700', effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true },
    listing_id: `L${i}`, asset_id: String(1000 + i), sku, price: 100 + i, promoted: 0,
    user_note: '', account: MAIN, state: 'active', stateReason: null, tradeId: null, pending: null, ...over,
  };
}

export function buyOrder(i: number, over: Partial<BuyOrderRowView> = {}): BuyOrderRowView {
  const sku = `${6000 + i};6`;
  return {
    domain: 'buyOrders', key: sku, ...noDraft, item: null, sku, account: MAIN, price: 300 + i, quantity: 5, active: 1,
    user_note: '', filled: 0, quantityMayBeCut: false, balanceCovers: null, pending: null, ...over,
  };
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

/** A `ledger:page` handler over a fixed list of rows: pages as main would, without filtering. */
export function pagesOf(rows: readonly LedgerRowView[], stamps = { ledger: 1, drafts: 1 }): NonNullable<Handlers['ledger:page']> {
  return ({ domain, offset = 0, limit = 100 }) => {
    const mine = rows.filter((r) => r.domain === domain);
    return { domain, draftId: null, stamps, offset, total: mine.length, all: mine.length, changed: 0, rows: mine.slice(offset, offset + limit) };
  };
}

/** Handlers for every channel a screen reads at start, returning quiet defaults. */
export function deskHandlers(over: Handlers = {}): Handlers {
  return {
    'app:status': () => ({ stamp: 1, mode: 'sandbox', online: true, version: '0.1.0', profile: 'default', serviceUrl: 'http://127.0.0.1:1', serviceProblem: null, reach: { state: 'reachable' as const, why: null, since: null } }),
    'key:status': () => ({ stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true }),
    'settings:get': () => settings,
    'heartbeat:state': () => ({ stamp: 1, status: 'active', refreshAt: null, lastBeatAt: null, nextBeatAt: null, accounts: [], lastError: null }),
    'scheduler:state': () => ({ stamp: 1, blocked: null, used: 0, limit: 80, pausedUntil: null }),
    'balance:get': () => ({ stamp: 1, reading: null }),
    'trades:list': () => ({ stamp: 1, trades: [] }),
    'accounts:list': () => accounts,
    'ledger:page': pagesOf([]),
    'drafts:list': () => ({ stamp: 1, currentId: null, drafts: [] }),
    'apply:state': () => ({ stamp: 1, job: null }),
    'backups:list': () => ({ backups: [], problem: null }),
    'alerts:list': () => ({ stamp: 1, webhooks: [], keychainAvailable: true }),
    'apply:unknownOutcomes': () => ({ stamp: 1, outcomes: [] }),
    'activity:list': () => [],
    'inventory:state': () => ({ stamp: 1, accounts: [], facets: { qualities: [], effects: [], killstreaks: [], wears: [] } }),
    'inventory:page': ({ offset }) => ({ stamp: 1, offset: offset ?? 0, total: 0, all: 0, rows: [] }),
    'updates:state': () => ({ state: 'idle', version: null, percent: null, restartPending: false, message: null, checkedAt: null }),
    ...over,
  };
}
