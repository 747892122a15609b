import type { AccountsService } from '../../core/accounts/accounts-service.ts';
import type { AlertsService } from '../../core/alerts/alerts-service.ts';
import type { ApplyService } from '../../core/apply/apply-draft.ts';
import type { ApplyJobTracker } from '../../core/apply/apply-job.ts';
import type { DraftService } from '../../core/drafts/draft-service.ts';
import type { Unsubscribe } from '../../core/events.ts';
import type { Heartbeat } from '../../core/heartbeat/index.ts';
import type { TradeHistory } from '../../core/history/trade-history.ts';
import type { Inventory } from '../../core/inventory/index.ts';
import type { CostLedger } from '../../core/costs/cost-ledger.ts';
import type { PricingService } from '../../core/pricing/pricing-service.ts';
import type { RepriceSchedule } from '../../core/pricing/reprice-schedule.ts';
import type { KeyService } from '../../core/key/key-service.ts';
import type { KeyTester } from '../../core/key/key-test.ts';
import type { Scheduler } from '../../core/scheduler/index.ts';
import type { SettingsService } from '../../core/settings/settings-service.ts';
import type { TradeWatcher } from '../../core/trades/trade-watcher.ts';
import { activityView } from '../handlers/ledger.ts';
import type { EmitEvent } from '../router.ts';
import type { Area, Stamps } from '../stamps.ts';
import type { DeskViews } from '../views.ts';

/**
 * Main's changes → events on the bridge, each area's stamp moved on first. A
 * mode switch replaces the workspace: its subscriptions are renewed and every
 * area is pushed again at once, so a screen never shows the previous
 * workspace's state. The ledger and the drafts announce only that they
 * changed (with the stamp); screens ask for the page they show.
 */

/** Ledger changes come in bursts during an apply (one per batch): announced at most this often. */
const LEDGER_PUSH_MS = 250;
/** Activity entries are pushed at most this often, in batches of at most ACTIVITY_PUSH_MAX (the newest). */
const ACTIVITY_PUSH_MS = 250;
/**
 * The rate limits allow ~1.5 requests a second, each one entry sent and its
 * outcome: a burst beyond this (notes of many sales at once) is rare, and a
 * screen that missed some reads them with activity:list.
 */
const ACTIVITY_PUSH_MAX = 200;

/** What the events follow: the desk's own news, and the current workspace's services (followed again when it is replaced). */
export interface EventSources {
  onWorkspace(listener: () => void): Unsubscribe;
  onStatus(listener: () => void): Unsubscribe;
  readonly keys: Pick<KeyService, 'on'>;
  readonly keyTest: Pick<KeyTester, 'on'>;
  readonly settings: Pick<SettingsService, 'on'>;
  readonly alerts: Pick<AlertsService, 'on'>;
  heartbeat(): Pick<Heartbeat, 'on'>;
  scheduler(): Pick<Scheduler, 'on'>;
  trades(): Pick<TradeWatcher, 'on'>;
  accounts(): Pick<AccountsService, 'on'>;
  applyJob(): Pick<ApplyJobTracker, 'on'>;
  apply(): Pick<ApplyService, 'on' | 'activityEntries'>;
  ledger(): { onChanged(listener: () => void): Unsubscribe };
  drafts(): Pick<DraftService, 'on'>;
  history(): Pick<TradeHistory, 'on'>;
  inventory(): { readonly reads: Pick<Inventory['reads'], 'on'> };
  pricing(): { readonly service: Pick<PricingService, 'on'>; readonly schedule: Pick<RepriceSchedule, 'on'>; readonly costs: Pick<CostLedger, 'on'> };
}

export function connectDeskEvents(desk: EventSources, emit: EmitEvent, stamps: Stamps, views: DeskViews, options: { announceAtStart: boolean } = { announceAtStart: false }): Unsubscribe {
  let workspaceSubs: Unsubscribe[] = [];
  let activityTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ids of entries added or settled since the last push. */
  let activityIds = new Set<number>();

  const push = {
    app: () => emit('app:status', views.app()),
    key: () => void views.key().then((k) => emit('key:status', k), () => undefined),
    alerts: () => void views.alerts().then((a) => emit('alerts:changed', a), () => undefined),
    settings: () => emit('settings:changed', views.settings()),
    heartbeat: () => emit('heartbeat:state', views.heartbeat()),
    scheduler: () => emit('scheduler:state', views.scheduler()),
    balance: () => emit('balance:changed', views.balance()),
    trades: () => emit('trades:changed', views.trades()),
    accounts: () => emit('accounts:changed', views.accounts()),
    apply: () => emit('apply:state', views.apply()),
    outcomes: () => emit('apply:unknownOutcomes', views.outcomes()),
  } satisfies Partial<Record<Area, () => void>>;
  const changed = (area: keyof typeof push) => () => {
    stamps.bump(area);
    push[area]();
  };
  /** Areas whose changes come in bursts: the stamp moves at once, the event follows at most every LEDGER_PUSH_MS. */
  const burstTimers: Partial<Record<'ledger' | 'history' | 'pricing', ReturnType<typeof setTimeout>>> = {};
  const burstArea = (area: 'ledger' | 'history' | 'pricing') => () => {
    stamps.bump(area);
    burstTimers[area] ??= setTimeout(() => {
      delete burstTimers[area];
      emit(`${area}:changed`, { stamp: stamps.of(area) });
    }, LEDGER_PUSH_MS);
  };
  const ledgerChanged = burstArea('ledger');
  // A source's read, a reprice's steps, a cost counted after each recording: announced as the ledger is.
  const pricingChanged = burstArea('pricing');
  // Each load records its trades: announced as the ledger is.
  const historyChanged = burstArea('history');

  const pushActivity = (apply: Pick<ApplyService, 'activityEntries'>) => {
    activityTimer = undefined;
    const ids = [...activityIds].sort((a, b) => b - a).slice(0, ACTIVITY_PUSH_MAX);
    activityIds = new Set();
    // None once the workspace's store has closed.
    const rows = apply.activityEntries(ids);
    if (rows.length === 0) return;
    const stamp = stamps.bump('activity');
    for (const row of rows) emit('activity:added', { ...activityView(row), stamp });
  };
  const activityChanged = (apply: Pick<ApplyService, 'activityEntries'>) => (ids: readonly number[]) => {
    for (const id of ids) activityIds.add(id);
    activityTimer ??= setTimeout(() => pushActivity(apply), ACTIVITY_PUSH_MS);
  };

  const follow = () => {
    for (const off of workspaceSubs) off();
    // Entries of the workspace being replaced are not this one's.
    clearTimeout(activityTimer);
    activityTimer = undefined;
    activityIds = new Set();
    const trades = desk.trades();
    const apply = desk.apply();
    const inventory = desk.inventory();
    const pricing = desk.pricing();
    workspaceSubs = [
      desk.heartbeat().on('state', changed('heartbeat')),
      desk.scheduler().on('state', changed('scheduler')),
      trades.on('trades', changed('trades')),
      trades.on('balance', () => {
        changed('balance')();
        // Buy order rows say what the balance covers at their price.
        ledgerChanged();
      }),
      // "Not read: why, next try in 40 s" follows the read as it goes.
      trades.on('balanceState', changed('balance')),
      desk.accounts().on('changed', changed('accounts')),
      desk.applyJob().on('changed', () => {
        changed('apply')();
        // Each batch moves the budget too.
        changed('scheduler')();
      }),
      apply.on('unknownOutcomes', changed('outcomes')),
      desk.ledger().onChanged(ledgerChanged),
      desk.drafts().on('changed', ({ draftId }) => emit('drafts:changed', { stamp: stamps.bump('drafts'), draftId })),
      apply.on('activity', activityChanged(apply)),
      desk.history().on('changed', historyChanged),
      inventory.reads.on('state', () => emit('inventory:changed', { stamp: stamps.bump('inventory'), items: false })),
      inventory.reads.on('items', () => emit('inventory:changed', { stamp: stamps.bump('inventory'), items: true })),
      pricing.service.on('changed', pricingChanged),
      pricing.schedule.on('changed', pricingChanged),
      pricing.costs.on('changed', pricingChanged),
    ];
  };

  const pushAll = () => {
    for (const area of Object.keys(push) as (keyof typeof push)[]) changed(area)();
    ledgerChanged();
    historyChanged();
    pricingChanged();
    emit('drafts:changed', { stamp: stamps.bump('drafts'), draftId: null });
    emit('inventory:changed', { stamp: stamps.bump('inventory'), items: true });
  };

  follow();
  const deskSubs = [
    desk.onWorkspace(() => {
      follow();
      pushAll();
    }),
    desk.onStatus(changed('app')),
    desk.keys.on('status', changed('key')),
    // A key test's result (or its end when the key changes) is news for every screen showing the key.
    desk.keyTest.on('changed', changed('key')),
    desk.settings.on('changed', changed('settings')),
    desk.alerts.on('changed', changed('alerts')),
  ];
  if (options.announceAtStart) pushAll();

  return () => {
    for (const timer of Object.values(burstTimers)) clearTimeout(timer);
    clearTimeout(activityTimer);
    for (const off of [...workspaceSubs, ...deskSubs]) off();
  };
}
