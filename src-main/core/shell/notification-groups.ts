import type { PendingTrade } from '../../../src-shared/trades.ts';
import { HIDDEN_CONTROL_CHARS } from '../../../src-shared/field-rules.ts';
import { formatCents } from '../../../src-shared/money.ts';
import { actionTitle, TOLD_TOGETHER_ABOVE } from '../trades/action-words.ts';

/**
 * Which native notifications to show for trades needing action. One per
 * trade, so each says what it is about and opens that trade; but when many
 * arrive at once (a burst of sales) they fold into one, because a stack of
 * toasts is noise the trader learns to ignore. A trade is announced once per
 * status: the same trade turning from "accept" to "confirm on your phone" is
 * news, the same status on the next poll is not.
 */

export type TradeForNotice = Pick<PendingTrade, 'trade_type' | 'trade_id' | 'status' | 'total' | 'items' | 'verification_code'> & {
  /** The partner's account is younger than the trader's warning age: a common sign of a scam. */
  readonly youngPartner?: boolean;
  /** The partner account's age in whole days, said in the warning. */
  readonly partnerAgeDays?: number;
};

/** What a click should open: one trade, or the list when the notice covers many. */
export type TradeRef = Pick<PendingTrade, 'trade_type' | 'trade_id'>;

export interface TradeNotice {
  readonly title: string;
  readonly body: string;
  /** The trade to open on click; null for a grouped notice (open the list). */
  readonly open: TradeRef | null;
  /** The trades this notice announces. */
  readonly trades: readonly TradeRef[];
}

export interface NoticePlanOptions {
  /** More than this many new trades at once become one notice. Default 3. */
  readonly groupAbove?: number;
  /** The trader muted notifications: nothing is shown, but trades still count as announced. */
  readonly muted?: boolean;
}

export interface NoticePlan {
  readonly notices: readonly TradeNotice[];
  /** Dedupe keys of every trade+status now announced (including muted ones). */
  readonly announced: readonly string[];
}

export const DEFAULT_GROUP_ABOVE = TOLD_TOGETHER_ABOVE;

/** The key that makes "never twice for the same trade and status" checkable. */
export function noticeKey(trade: Pick<PendingTrade, 'trade_type' | 'trade_id' | 'status'>): string {
  return `${trade.trade_type}:${trade.trade_id}:${trade.status}`;
}

export function planTradeNotices(
  trades: readonly TradeForNotice[],
  alreadyAnnounced: ReadonlySet<string>,
  options: NoticePlanOptions = {},
): NoticePlan {
  const seen = new Set<string>();
  const fresh = trades.filter((t) => {
    const key = noticeKey(t);
    if (alreadyAnnounced.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const announced = [...seen];
  if (fresh.length === 0 || options.muted) return { notices: [], announced };
  const groupAbove = options.groupAbove ?? DEFAULT_GROUP_ABOVE;
  const notices = fresh.length > groupAbove ? [groupedNotice(fresh)] : fresh.map(singleNotice);
  return { notices, announced };
}

function singleNotice(trade: TradeForNotice): TradeNotice {
  const lines = [`${itemSummary(trade.items, 3)} · ${formatCents(trade.total)}`];
  if (trade.verification_code) lines.push(`Verification code: ${toastText(trade.verification_code, 40)}`);
  // The warning travels with the toast: the trader may accept from the trade page without opening the app.
  if (trade.youngPartner) lines.push(`⚠ Partner's account is ${days(trade.partnerAgeDays ?? 0)} old: check before trading`);
  const ref = { trade_type: trade.trade_type, trade_id: trade.trade_id };
  return { title: actionTitle(trade), body: lines.join('\n'), open: ref, trades: [ref] };
}

function groupedNotice(trades: readonly TradeForNotice[]): TradeNotice {
  const total = trades.reduce((sum, t) => sum + t.total, 0);
  const items = trades.flatMap((t) => t.items);
  const young = trades.filter((t) => t.youngPartner).length;
  const warning = young > 0 ? `\n⚠ ${young} of them with a young partner account: check before trading` : '';
  return {
    title: `${trades.length} trades need action`,
    body: `${formatCents(total)} in all: ${itemSummary(items, 4)}${warning}`,
    open: null,
    trades: trades.map((t) => ({ trade_type: t.trade_type, trade_id: t.trade_id })),
  };
}

function days(n: number): string {
  return n === 1 ? '1 day' : `${n} days`;
}

/** "Key ×2, Team Captain, +3 more": names as the trader knows them, cut to fit a toast. */
function itemSummary(items: TradeForNotice['items'], shown: number): string {
  if (items.length === 0) return 'no items listed';
  const names = items.slice(0, shown).map((i) => {
    const name = toastText(i.name, MAX_NAME_IN_TOAST);
    return i.quantity > 1 ? `${name} ×${i.quantity}` : name;
  });
  const more = items.length - shown;
  return more > 0 ? `${names.join(', ')}, +${more} more` : names.join(', ');
}

/** Longest item name put in a toast; a longer one is cut with an ellipsis. */
const MAX_NAME_IN_TOAST = 80;
const MARKUP = /<[^>]*>?/g;
const UNSHOWABLE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${HIDDEN_CONTROL_CHARS}]`, 'g');

/**
 * Text from the service made fit for a native notification: some desktops
 * read a toast's body as markup (libnotify's <b>, <a>, <img>), and a text
 * direction control would make a name read as another. Tags and stray angle
 * brackets, controls and direction marks go; what is left is cut to `max`.
 */
export function toastText(text: string, max: number): string {
  const plain = text.slice(0, max * 4).replace(MARKUP, '').replace(/[<>]/g, '').replace(UNSHOWABLE, '').replace(/\s+/g, ' ').trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
