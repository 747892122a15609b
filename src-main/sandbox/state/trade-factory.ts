import type { BuyOrderTrade, MarketTrade } from '../../../src-shared/trades.ts';
import type { DrawnItem } from '../catalog/catalog.ts';
import { drawTradeItem } from '../catalog/catalog.ts';
import type { Random } from '../catalog/prng.ts';
import { intBetween, pick } from '../catalog/prng.ts';
import type { Accounts } from './accounts.ts';

/**
 * Builds pending trade objects with every field of the interface document's
 * sections 2.3–2.5, drawn from a random stream. Used by the seeded schedule and
 * by the admin API's `addTrade` (which then overrides fields).
 */

/** The status values of section 3.1, exactly as the service spells them. */
export const TRADE_STATUS = {
  marketActionRequired: 'Action Required',
  marketWaitingForSeller: 'Waiting for seller',
  buyOrderActionRequired: 'Action required',
  buyOrderWaitingForBuyer: 'Waiting for buyer',
  buyOrderWaitingForSeller: 'Waiting for seller',
  buyOrderConfirmationRequired: 'confirmation_required',
} as const;

export const RAW_STATUS = { sent: 'SENT', confirmationRequired: 'CONFIRMATION_REQUIRED' } as const;

/** Which side of the trade the caller (one of the key's accounts) is on. */
export type TradeRole = 'seller' | 'buyer';

export type TradeBody<T> = Omit<T, 'status' | 'raw_status'>;

const DAY_S = 86_400;
const PARTNER_BASE = 76561197960265728n;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export interface TradeContext {
  readonly accounts: Accounts;
  /** Unix seconds of each own account's creation, years in the past. */
  readonly ownCreation: ReadonlyMap<string, number>;
  /**
   * A buyer takes one of `account`'s active listings (listed by `at`) in trade
   * `tradeId`: returns what the trade shows of it, or null when there is none.
   * A market trade in which the caller sells is always the sale of a listing.
   */
  readonly sellListing?: (account: string, at: number, tradeId: string) => SoldItem | null;
}

/** What a sale's trade shows of the listing it took. */
export interface SoldItem {
  readonly sku: string;
  readonly price: number;
  readonly name: string;
  readonly quality: string;
  readonly classId: string;
}

/** The items of a market trade that sold this listing: one unit at its price. */
export function soldItems(item: SoldItem) {
  return [{ name: item.name, sku: item.sku, quantity: 1, price: item.price, quality: item.quality, image_url: item.classId, particle_url: '' }];
}

interface Parties {
  buyer_id: string;
  supplier_id: string;
  buyer_steam_creation_time: number;
  supplier_steam_creation_time: number;
  partner_steam_creation_time: number;
}

function parties(random: Random, ctx: TradeContext, role: TradeRole, own: string, timestamp: number): Parties {
  const partner = String(PARTNER_BASE + BigInt(intBetween(random, 10_000_000, 1_500_000_000)));
  // Some partners are days-old accounts: the desk flags them as a scam risk.
  const young = random() < 0.15;
  const partnerCreated = young
    ? timestamp - intBetween(random, 1, 20) * DAY_S - intBetween(random, 0, DAY_S - 1)
    : timestamp - intBetween(random, 400, 4_500) * DAY_S;
  const ownCreated = ctx.ownCreation.get(own) ?? timestamp - 3_000 * DAY_S;
  const seller = role === 'seller';
  return {
    buyer_id: seller ? partner : own,
    supplier_id: seller ? own : partner,
    buyer_steam_creation_time: seller ? partnerCreated : ownCreated,
    supplier_steam_creation_time: seller ? ownCreated : partnerCreated,
    partner_steam_creation_time: partnerCreated,
  };
}

function verificationCode(random: Random): { verification_code?: string } {
  if (random() >= 0.25) return {};
  let code = '';
  for (let i = 0; i < 4; i++) code += pick(random, [...CODE_ALPHABET]);
  return { verification_code: code };
}

function ownAccount(random: Random, ctx: TradeContext): string {
  return random() < 0.7 ? ctx.accounts.main : pick(random, ctx.accounts.linked);
}

/** Item fields both trade kinds share; `particle_url` and `wear` differ by kind. */
function itemFields(item: DrawnItem, quantity: number) {
  return {
    name: item.name,
    sku: item.sku,
    quantity,
    price: item.price,
    quality: item.quality,
    image_url: item.classId,
  };
}

function commonFields<I extends { price: number; quantity: number }>(
  ctx: TradeContext, tradeId: string, timestamp: number, items: I[],
) {
  return {
    user_id: ctx.accounts.main,
    trade_id: tradeId,
    timestamp,
    total: items.reduce((sum, i) => sum + i.price * i.quantity, 0),
    items,
  };
}

/** A marketplace trade without its status fields. */
export function marketTradeBody(
  random: Random, ctx: TradeContext, tradeId: string, timestamp: number, role: TradeRole,
): TradeBody<MarketTrade> {
  const own = ownAccount(random, ctx);
  const items = Array.from({ length: intBetween(random, 1, 3) }, () => {
    const item = drawTradeItem(random);
    return {
      ...itemFields(item, item.stackable ? intBetween(random, 1, 5) : 1),
      particle_url: item.effect ?? '',
      ...(item.wear === null ? {} : { wear: item.wear }),
    };
  });
  return {
    ...commonFields(ctx, tradeId, timestamp, items),
    trade_type: 'market',
    ...parties(random, ctx, role, own, timestamp),
    name_tax_reduction: random() < 0.1,
    ...verificationCode(random),
  };
}

/** A buy order fulfillment trade without its status fields. */
export function buyOrderTradeBody(
  random: Random, ctx: TradeContext, tradeId: string, timestamp: number, role: TradeRole,
): TradeBody<BuyOrderTrade> {
  const own = ownAccount(random, ctx);
  const items = Array.from({ length: intBetween(random, 1, 2) }, () => {
    const item = drawTradeItem(random);
    return { ...itemFields(item, intBetween(random, 1, 3)), particle_url: item.effect };
  });
  const p = parties(random, ctx, role, own, timestamp);
  let linked: BuyOrderTrade['supplier_linked_account'] = null;
  const ownProfile = ctx.accounts.profiles.get(own);
  if (role === 'seller' && ownProfile) linked = { ...ownProfile };
  else if (role === 'buyer' && random() < 0.2) {
    linked = { id64: p.supplier_id, name: `trader-${p.supplier_id.slice(-4)}`, image_url: '' };
  }
  return {
    ...commonFields(ctx, tradeId, timestamp, items),
    trade_type: 'buy_order',
    ...p,
    supplier_linked_account: linked,
    ...verificationCode(random),
  };
}

/** The status a trade starts in, for the caller's role. */
export function initialStatus(kind: 'market' | 'buy_order', role: TradeRole): { status: string; raw_status: string } {
  if (kind === 'market') {
    return {
      status: role === 'seller' ? TRADE_STATUS.marketActionRequired : TRADE_STATUS.marketWaitingForSeller,
      raw_status: RAW_STATUS.sent,
    };
  }
  return {
    status: role === 'seller' ? TRADE_STATUS.buyOrderActionRequired : TRADE_STATUS.buyOrderWaitingForSeller,
    raw_status: RAW_STATUS.sent,
  };
}
