import { app, Notification } from 'electron';
import { noticeKey, planTradeNotices, type TradeForNotice, type TradeRef } from '../../core/shell/notification-groups.ts';
import type { DeskNotice } from '../../core/shell/reprice-notice.ts';

/**
 * Native notifications for trades needing action (which ones, and their
 * words, come from core/shell/notification-groups.ts) and the desk's own
 * notices (core/shell/reprice-notice.ts); this file shows them,
 * remembers what was announced, and turns a click into `onOpen`.
 */

export interface NotifierDeps {
  /** The trader's mute setting, read at each batch. */
  readonly muted: () => boolean;
  /** A click: open the app on this trade, or on the trade list (null). */
  readonly onOpen: (target: TradeRef | null) => void;
  /** A click on a notice of the desk's own: open the app on its screen. */
  readonly onOpenView?: (view: DeskNotice['view']) => void;
  readonly iconPath?: string;
  /** More than this many new trades at once become one notification. Default 3. */
  readonly groupAbove?: number;
  /** Keys already announced (e.g. restored at start), `trade_type:trade_id:status`. */
  readonly announced?: Iterable<string>;
}

export interface TradeNotifier {
  /** Announces trades needing action not announced before; returns how many notifications were shown. */
  notify(trades: readonly TradeForNotice[]): number;
  /**
   * Forgets announcements of trades no longer pending, so memory does not
   * grow for ever. Every status of a still-pending trade is kept, so a trade
   * going back to an earlier status is not announced twice.
   */
  retainOnly(pending: readonly TradeRef[]): void;
  /** Shows a notice of the desk's own (muted as the trades are); whether it was shown. */
  notice(notice: DeskNotice): boolean;
}

/**
 * Windows shows toasts only for an app with an AppUserModelID matching its
 * Start-menu shortcut (the installer's appId). Call once at start.
 */
export function prepareNotifications(appId: string, platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') app.setAppUserModelId(appId);
}

export function createNotifier(deps: NotifierDeps): TradeNotifier {
  const announced = new Set<string>(deps.announced ?? []);
  // Which announcement keys belong to which trade, for retainOnly.
  const keysByTrade = new Map<string, string[]>();
  const remember = (trade: TradeForNotice) => {
    const key = noticeKey(trade);
    const tradeKey = tradeKeyOf(trade);
    keysByTrade.set(tradeKey, [...(keysByTrade.get(tradeKey) ?? []), key]);
  };
  // Held until closed: a notification collected by the GC loses its click handler.
  const live = new Set<Notification>();
  const show = (options: { title: string; body: string; groupId: string }, onClick: () => void) => {
    const n = new Notification({ ...options, urgency: 'normal', ...(deps.iconPath === undefined ? {} : { icon: deps.iconPath }) });
    const release = () => live.delete(n);
    n.on('click', () => {
      release();
      onClick();
    });
    n.on('close', release);
    n.on('failed', release);
    live.add(n);
    n.show();
  };

  return {
    notify(trades) {
      const plan = planTradeNotices(trades, announced, {
        muted: deps.muted() || !Notification.isSupported(),
        ...(deps.groupAbove === undefined ? {} : { groupAbove: deps.groupAbove }),
      });
      for (const trade of trades) if (!announced.has(noticeKey(trade))) remember(trade);
      for (const key of plan.announced) announced.add(key);
      for (const notice of plan.notices) show({ title: notice.title, body: notice.body, groupId: 'trades' }, () => deps.onOpen(notice.open));
      return plan.notices.length;
    },
    notice(notice) {
      if (deps.muted() || !Notification.isSupported()) return false;
      show({ title: notice.title, body: notice.body, groupId: notice.view }, () => deps.onOpenView?.(notice.view));
      return true;
    },
    retainOnly(pending) {
      const keep = new Set(pending.map(tradeKeyOf));
      for (const [tradeKey, keys] of keysByTrade) {
        if (keep.has(tradeKey)) continue;
        for (const key of keys) announced.delete(key);
        keysByTrade.delete(tradeKey);
      }
    },
  };
}

function tradeKeyOf(trade: TradeRef): string {
  return `${trade.trade_type}:${trade.trade_id}`;
}
