import type {
  AccountsView, AlertsView, ApplyJobView, ApplyStateView, AppStatus, BalanceView, HeartbeatView, KeyStatus, SchedulerView, Settings,
  TradesView, UnknownOutcomeView, UnknownOutcomesView,
} from '../../src-shared/contract.ts';
import type { AccountsService, AccountsSnapshot } from '../core/accounts/accounts-service.ts';
import type { AlertsService } from '../core/alerts/alerts-service.ts';
import type { ApplyService } from '../core/apply/apply-draft.ts';
import type { ApplyJobTracker } from '../core/apply/apply-job.ts';
import type { ApplyProgress } from '../core/apply/apply-run.ts';
import type { UnknownOutcome } from '../core/apply/recovery.ts';
import type { ItemNames } from '../core/items/item-names.ts';
import { itemViewOf } from '../core/items/item-view.ts';
import type { KeyService } from '../core/key/key-service.ts';
import type { KeyTester } from '../core/key/key-test.ts';
import type { SettingsService } from '../core/settings/settings-service.ts';
import type { TradeWatcher } from '../core/trades/trade-watcher.ts';
import type { ItemView } from '../../src-shared/ledger.ts';
import type { DeskStatusView } from '../../src-shared/views.ts';
import type { Heartbeat, HeartbeatState } from '../core/heartbeat/index.ts';
import type { Scheduler } from '../core/scheduler/index.ts';
import type { AccountRow } from '../core/store/accounts-repo.ts';
import type { Stamps } from './stamps.ts';

/**
 * Main's state → the view models of the contract, each with its area's
 * stamp. Replies and events read the same functions, so the same state is
 * always shown the same way and the renderer can order what it is told.
 */
export interface DeskViews {
  app(): AppStatus;
  key(): Promise<KeyStatus>;
  settings(): Settings;
  heartbeat(): HeartbeatView;
  scheduler(): SchedulerView;
  balance(): BalanceView;
  trades(): TradesView;
  accounts(): AccountsView;
  apply(): ApplyStateView;
  outcomes(): UnknownOutcomesView;
  alerts(): Promise<AlertsView>;
}

/** What the views read: the desk's status, key and settings, and the current workspace's services (asked for at each read). */
export interface ViewSources {
  status(): DeskStatusView;
  readonly keys: Pick<KeyService, 'status'>;
  readonly keyTest: Pick<KeyTester, 'last'>;
  readonly settings: Pick<SettingsService, 'get'>;
  readonly alerts: Pick<AlertsService, 'view'>;
  heartbeat(): Pick<Heartbeat, 'state'>;
  scheduler(): Pick<Scheduler, 'state' | 'usage'>;
  trades(): Pick<TradeWatcher, 'balance' | 'balanceState' | 'trades' | 'checkedAt'>;
  accounts(): Pick<AccountsService, 'snapshot'>;
  applyJob(): Pick<ApplyJobTracker, 'current'>;
  apply(): Pick<ApplyService, 'unknownOutcomes'>;
  names(): ItemNames | null;
  /** The SKU of a listing the ledger holds; null when it holds none. */
  listingSku(assetId: string): string | null;
}

export function createDeskViews(desk: ViewSources, stamps: Stamps): DeskViews {
  return {
    app: () => ({ stamp: stamps.of('app'), ...desk.status() }),
    async key() {
      // The stamp is read before the keychain answers: a change meanwhile is newer and wins.
      const stamp = stamps.of('key');
      return { stamp, ...(await desk.keys.status()), test: desk.keyTest.last() };
    },
    settings: () => ({ stamp: stamps.of('settings'), ...desk.settings.get() }),
    heartbeat: () => heartbeatView(stamps.of('heartbeat'), desk.heartbeat().state),
    scheduler: () => schedulerView(stamps.of('scheduler'), desk.scheduler()),
    balance: () => ({ stamp: stamps.of('balance'), reading: desk.trades().balance(), read: { ...desk.trades().balanceState() } }),
    trades: () => tradesView(stamps.of('trades'), desk.trades(), desk.names()),
    accounts: () => accountsView(stamps.of('accounts'), desk.accounts().snapshot()),
    apply: () => ({ stamp: stamps.of('apply'), job: applyJobView(desk.applyJob().current()) }),
    outcomes: () => ({
      stamp: stamps.of('outcomes'),
      outcomes: desk.apply().unknownOutcomes().map((u) => unknownOutcomeView(u, outcomeItemNamer(desk.names(), (id) => desk.listingSku(id)))),
    }),
    async alerts() {
      // As the key's: the stamp is read before the keychain answers.
      const stamp = stamps.of('alerts');
      return { stamp, ...(await desk.alerts.view()) };
    },
  };
}

/** The pending trades, each item named from its SKU, and when they were last read. */
export function tradesView(stamp: number, watcher: Pick<TradeWatcher, 'trades' | 'checkedAt'>, names: ItemNames | null): TradesView {
  const trades = watcher.trades().map((t) => ({
    ...t,
    items: t.items.map((i) => ({ ...i, item: names === null ? null : itemViewOf(names, i.sku) })),
  })) as TradesView['trades'];
  return { stamp, trades, checkedAt: watcher.checkedAt() };
}

export const heartbeatView = (stamp: number, s: HeartbeatState): HeartbeatView => ({
  stamp,
  status: s.status,
  refreshAt: s.refreshAt,
  lastBeatAt: s.lastBeatAt,
  nextBeatAt: s.nextBeatAt,
  accounts: [...s.accounts],
  lastError: s.lastError,
  clockOffsetMs: s.clockOffsetMs,
});

export function schedulerView(stamp: number, scheduler: Pick<Scheduler, 'state' | 'usage'>): SchedulerView {
  const { blocked, pauses } = scheduler.state;
  const { used, limit } = scheduler.usage();
  const latest = pauses.reduce<number | null>((max, p) => (max === null || p.until > max ? p.until : max), null);
  return { stamp, blocked, used, limit, pausedUntil: latest };
}

const accountView = (row: AccountRow) => ({
  id64: row.account_id,
  role: row.kind,
  tradeUrl: row.trade_url,
  automated: row.kind === 'main' ? true : row.automated,
});

export const accountsView = (stamp: number, s: AccountsSnapshot): AccountsView => ({
  stamp,
  main: s.main ? accountView(s.main) : null,
  linked: s.linked.map(accountView),
  readAt: s.readAt,
  read: { ...s.read },
});

export function applyJobView(p: ApplyProgress | null): ApplyJobView | null {
  if (p === null) return null;
  return {
    jobId: p.jobId,
    draftId: p.draftId,
    runId: p.runId,
    state: p.state,
    itemsTotal: p.itemsTotal,
    itemsDone: p.itemsDone,
    itemsFailed: p.itemsFailed,
    itemsUnknown: p.itemsUnknown,
    itemsLeft: p.itemsLeft,
    requestsSent: p.requestsSent,
    etaMs: p.etaMs,
    startedAt: p.startedAt,
    ...(p.stopReason === undefined ? {} : { stopReason: p.stopReason }),
    ...(p.storeProblem === undefined ? {} : { storeProblem: { kind: p.storeProblem.kind, message: p.storeProblem.message } }),
    ...(p.waiting === undefined ? {} : { waiting: { ...p.waiting } }),
  };
}

/** Items shown per lost batch; the count says how many there are. */
const OUTCOME_ITEMS_SHOWN = 20;

/** Names an item of a lost batch by the SKU its change carries, or the ledger's for its asset. */
export function outcomeItemNamer(
  names: ItemNames | null,
  listingSku: (assetId: string) => string | null,
): (change: Readonly<Record<string, unknown>>) => ItemView | null {
  return (change) => {
    if (names === null) return null;
    const sku = typeof change.sku === 'string' ? change.sku
      : typeof change.asset_id === 'string' ? (listingSku(change.asset_id) ?? '') : '';
    return itemViewOf(names, sku);
  };
}

export const unknownOutcomeView = (u: UnknownOutcome, itemOf: (change: Readonly<Record<string, unknown>>) => ItemView | null = () => null): UnknownOutcomeView => ({
  id: u.id,
  draftId: u.draftId,
  endpoint: u.endpoint,
  sentAt: u.sentAt,
  reason: u.reason,
  itemCount: u.items.length,
  items: u.items.slice(0, OUTCOME_ITEMS_SHOWN).map((i) => ({ target: i.target, change: { ...i.change }, item: itemOf(i.change) })),
  choices: u.choices.map((c) => ({ ...c })),
  evidence: u.evidence.slice(-OUTCOME_ITEMS_SHOWN).map((e) => ({ target: e.target, at: e.at, message: e.message })),
});
