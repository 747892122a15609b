import type { AlertKind } from '../../../src-shared/alerts.ts';
import { formatCents } from '../../../src-shared/money.ts';
import { MARK_WORDS } from '../../../src-shared/reprice.ts';
import type { PendingTrade } from '../../../src-shared/trades.ts';
import { actionTitle } from '../trades/action-words.ts';

/**
 * What an alert says, before it is put in a receiver's format (Discord's,
 * or signed JSON): the facts of one happening, and the few words every
 * format shares (a title, a one-line summary).
 */

export interface TradeAlert {
  readonly tradeType: PendingTrade['trade_type'];
  readonly tradeId: string;
  readonly status: string;
  /** What the trader must do: the notification's title. */
  readonly action: string;
  readonly totalCents: number;
  /** Names as the service gives them (text from outside: each format makes them safe for its receiver). */
  readonly items: readonly { readonly name: string; readonly quantity: number; readonly priceCents: number }[];
  readonly partnerAgeDays: number;
  readonly youngPartner: boolean;
  readonly verificationCode: string | null;
}

export type Alert =
  /** One trade, or several that arrived at once (more than TOLD_TOGETHER_ABOVE). */
  | { readonly type: 'trade.needs_action'; readonly trades: readonly TradeAlert[] }
  | { readonly type: 'automation.lapsed'; readonly lastBeatAt: number | null; readonly why: string | null }
  | { readonly type: 'automation.restored'; readonly lapsedForMs: number }
  | {
      readonly type: 'apply.ended';
      readonly draftName: string | null;
      readonly state: 'done' | 'cancelled' | 'stopped';
      readonly total: number;
      readonly done: number;
      readonly failed: number;
      readonly unknown: number;
      readonly stopReason: string | null;
    }
  | {
      /** A scheduled reprice applied what the price guard let through; these changes it marked wait in a draft for the trader. */
      readonly type: 'reprice.waiting';
      readonly waiting: number;
      /** How many of them by what the guard said (drop, floor, rise, under_cost, under_margin, jump). */
      readonly why: Readonly<Record<string, number>>;
      readonly draftId: string;
      readonly draftName: string | null;
      /** Prices the same reprice applied on its own. */
      readonly applied: number;
    }
  | { readonly type: 'test' };

/** One alert on its way: the same `id` on every try, so a receiver can drop a repeat. */
export interface AlertEnvelope {
  readonly id: string;
  /** Wall-clock ms when it happened. */
  readonly at: number;
  /** From the built-in simulator, not the live service. */
  readonly sandbox: boolean;
  readonly alert: Alert;
}

/** Which of the trader's choices an alert falls under; a test goes to the webhook it was asked for. */
export function kindOf(alert: Alert): AlertKind | null {
  switch (alert.type) {
    case 'trade.needs_action': return 'trades';
    case 'automation.lapsed':
    case 'automation.restored': return 'automation';
    case 'apply.ended':
    // What a scheduled reprice leaves for the trader to apply is told with the applies.
    case 'reprice.waiting': return 'apply';
    case 'test': return null;
  }
}

/** A trade the watcher found needing action, as an alert tells it. */
export function tradeAlert(trade: PendingTrade & { partnerAgeDays: number; youngPartner: boolean }): TradeAlert {
  return {
    tradeType: trade.trade_type,
    tradeId: trade.trade_id,
    status: trade.status,
    action: actionTitle(trade),
    totalCents: trade.total,
    items: trade.items.map((i) => ({ name: i.name, quantity: i.quantity, priceCents: i.price })),
    partnerAgeDays: trade.partnerAgeDays,
    youngPartner: trade.youngPartner,
    verificationCode: trade.verification_code ?? null,
  };
}

export const days = (n: number): string => (n === 1 ? '1 day' : `${n} days`);

/** The alert's title, as every format shows it (before each makes it safe for its receiver). */
export function alertTitle(alert: Alert): string {
  switch (alert.type) {
    case 'trade.needs_action':
      return alert.trades.length === 1 && alert.trades[0] ? alert.trades[0].action : `${alert.trades.length} trades need action`;
    case 'automation.lapsed': return 'Automation lapsed: listings no longer show as automated';
    case 'automation.restored': return 'Automation restored: listings show as automated again';
    case 'apply.ended': return applyTitle(alert);
    case 'reprice.waiting': return `${count(alert.waiting, 'repriced change waits', 'repriced changes wait')} for you: marked by the price guard`;
    case 'test': return 'A test alert from Marketplace Desk';
  }
}

function applyTitle(alert: Extract<Alert, { type: 'apply.ended' }>): string {
  const verb = alert.state === 'done' ? 'finished' : alert.state === 'cancelled' ? 'was cancelled' : 'stopped';
  const unknown = alert.unknown > 0 ? ` with ${alert.unknown.toLocaleString('en-US')} outcome${alert.unknown === 1 ? '' : 's'} unknown` : '';
  return `Apply ${verb}${unknown}`;
}

/**
 * One line saying what it is about: the items, the amounts, the counts.
 * `outside` makes text from outside (item names, a draft's name, a
 * service's message) fit for the receiver: Discord's format escapes it.
 */
export function alertSummary(alert: Alert, outside: (text: string) => string = (text) => text): string {
  switch (alert.type) {
    case 'trade.needs_action': {
      const total = alert.trades.reduce((sum, t) => sum + t.totalCents, 0);
      const items = alert.trades.flatMap((t) => t.items);
      const names = items.slice(0, 3).map((i) => (i.quantity > 1 ? `${outside(i.name)} ×${i.quantity}` : outside(i.name)));
      const more = items.length > 3 ? `, +${items.length - 3} more` : '';
      const young = alert.trades.filter((t) => t.youngPartner).length;
      const warning = young === 0 ? '' : alert.trades.length === 1 ? ' · partner account young: check before trading' : ` · ${young} with a young partner account`;
      return `${names.join(', ') || 'no items listed'}${more} · ${formatCents(total)}${warning}`;
    }
    case 'automation.lapsed':
      return alert.why ? `The heartbeat failed: ${outside(alert.why)}` : 'The service’s automated mark ran out before a heartbeat renewed it.';
    case 'automation.restored':
      return `A heartbeat went through after ${Math.max(1, Math.round(alert.lapsedForMs / 60_000))} min without the mark.`;
    case 'apply.ended': {
      const n = (x: number) => x.toLocaleString('en-US');
      const parts = [`${n(alert.done)} of ${n(alert.total)} changes done`];
      if (alert.failed > 0) parts.push(`${n(alert.failed)} refused`);
      if (alert.unknown > 0) parts.push(`${n(alert.unknown)} unknown: check them in Drafts`);
      const name = alert.draftName ? `${outside(alert.draftName)}: ` : '';
      return `${name}${parts.join(', ')}${alert.stopReason ? `. ${outside(alert.stopReason)}` : ''}`;
    }
    case 'reprice.waiting': {
      const draft = alert.draftName ? `“${outside(alert.draftName)}”` : 'a draft';
      return `${markWords(alert.why)}: in ${draft}, for you to review and apply. ${count(alert.applied, 'price', 'prices')} the guard let through applied on their own.`;
    }
    case 'test':
      return 'If you can read this, alerts reach this webhook.';
  }
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "12 deep cut, 3 under cost": the marks by kind, the most first. */
export function markWords(why: Readonly<Record<string, number>>): string {
  const parts = Object.entries(why).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return parts.map(([mark, n]) => `${n.toLocaleString('en-US')} ${MARK_WORDS[mark] ?? mark}`).join(', ') || 'marked';
}
