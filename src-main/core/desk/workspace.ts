import { createMarketplaceClient, type MarketplaceClient, type RateLimitInfo, type Reach } from '../api/client.ts';
import { createServiceClock } from '../api/service-clock.ts';
import type { Clock } from '../clock.ts';
import type { Unsubscribe } from '../events.ts';
import { createAccountsService, type AccountsService } from '../accounts/accounts-service.ts';
import { createHeartbeat, type Heartbeat } from '../heartbeat/index.ts';
import { createScheduler, type Scheduler } from '../scheduler/index.ts';
import type { Settings } from '../settings/settings.ts';
import { createRepos, openStore, type Repos, type Store } from '../store/index.ts';
import { createTradeWatcher, type TradeWatcher } from '../trades/index.ts';
import { createLedgerChecker, type LedgerChecker } from '../trades/ledger-check.ts';
import { createLedgerSales, type LedgerSales } from '../trades/ledger-sales.ts';
import { createTradeRecording } from '../trades/trade-recording.ts';
import { createDraftService, type DraftService } from '../drafts/draft-service.ts';
import { createCsvService, type CsvService } from '../csv/csv-service.ts';
import { createApplyService, type ApplyService } from '../apply/apply-draft.ts';
import { trackApplyJob, type ApplyJobTracker } from '../apply/apply-job.ts';
import type { ItemNames } from '../items/item-names.ts';
import { createLedgerTables, type LedgerTables } from '../bulk/ledger-tables.ts';
import { createTradeHistory, type TradeHistory } from '../history/trade-history.ts';
import { createLedgerExport, type LedgerExport } from '../csv/ledger-export.ts';
import { schemaNameIndex } from '../store/name-index.ts';
import { openInventory, type Inventory } from '../inventory/index.ts';
import type { InventoryTiming } from '../inventory/inventory-service.ts';
import { STEAM_COMMUNITY_URL } from '../inventory/steam-client.ts';
import { createItemNames } from '../items/item-names.ts';
import type { KeyEchoNotice } from './key-echo-notice.ts';
import { createBulkJobs } from '../bulk/bulk-jobs.ts';
import { openCosts, openPricing, type WorkspacePricing } from './workspace-pricing.ts';

/**
 * Everything that talks to one service (the live one or the embedded sandbox)
 * with one ledger: the profile database, the client and the scheduler every
 * request goes through, the heartbeat, the trade watcher and the accounts.
 * Switching between live and sandbox replaces the whole workspace, so the
 * simulator's listings can never land in the real ledger.
 */
export interface Workspace {
  readonly mode: Settings['mode'];
  readonly baseUrl: string;
  readonly store: Store;
  readonly repos: Repos;
  readonly client: MarketplaceClient;
  readonly scheduler: Scheduler;
  readonly heartbeat: Heartbeat;
  readonly trades: TradeWatcher;
  readonly accounts: AccountsService;
  readonly drafts: DraftService;
  readonly csv: CsvService;
  readonly apply: ApplyService;
  /** The apply job the screens show: running, or the last of a draft that still exists. */
  readonly applyJob: ApplyJobTracker;
  /** The ledger tables: pages with the current draft laid over, edits over a selection. */
  readonly tables: LedgerTables;
  /** Item names from the game's schema (null when this build has none). */
  readonly names: ItemNames | null;
  /** Every trade the watcher saw and every balance reading, kept: the History screen. */
  readonly history: TradeHistory;
  /** The ledgers as CSV files (Export CSV on Listings and Buy orders). */
  readonly ledgerExport: LedgerExport;
  /** The accounts' inventories, read from Steam (the simulator in sandbox mode) in the background. */
  readonly inventory: Inventory;
  /**
   * "Check ledger": re-read what the service can tell, list the rows in
   * doubt; clear ended rows; `marked` when the trades showed listings sold;
   * `onChanged` after any write to the ledger (an apply's batch, a sale, a check).
   */
  readonly ledger: LedgerChecker & Pick<LedgerSales, 'on'> & { onChanged(listener: () => void): Unsubscribe };
  /** What each item cost, the price sources, the repricing rules and their schedule. */
  readonly pricing: WorkspacePricing;
  /** Starts the heartbeat (when enabled) and the trade watcher. */
  start(): void;
  /**
   * Applies the timing settings to the running loops: the next beat is
   * re-planned, the poll interval and the young-account age take effect,
   * with no request repeated and no trade dropped.
   */
  retime(settings: Pick<Settings, 'heartbeatIntervalMinutes' | 'tradePollSeconds' | 'youngAccountDays'>): void;
  /**
   * Stops everything and closes the profile. An apply is suspended first,
   * whatever closes the workspace: a batch on its way gets its outcome
   * journaled (waiting at most CLOSE_DRAIN_MS), nothing more is sent, and the
   * run stays open for the next start to resume.
   */
  close(): Promise<void>;
}

/**
 * How long closing waits for batches in flight. The client's own timeout
 * ends a request well before; this only bounds a wait that something
 * unforeseen keeps open, so a close always closes.
 */
export const CLOSE_DRAIN_MS = 60_000;

/** A database already open, with its repositories. */
export interface OpenDatabase {
  readonly store: Store;
  readonly repos: Repos;
}

/**
 * The ledger's database: a file the workspace opens (and closes with it), or
 * one already open, lent: live mode's ledger is the home database, which the
 * desk holds open for the settings (a second connection to the same file costs
 * the start some 5 ms). A lent one stays open when the workspace closes; its
 * lender closes it.
 */
export type WorkspaceLedger = { dbPath: string; lent?: never } | { lent: OpenDatabase; dbPath?: never };

export type WorkspaceDeps = WorkspaceLedger & WorkspaceOptions;

interface WorkspaceOptions {
  mode: Settings['mode'];
  baseUrl: string;
  clock: Clock;
  settings: Settings;
  /** The settings as they are now (the trader may change some without reopening); default `settings`. */
  currentSettings?: () => Settings;
  apiKey: () => Promise<string | null>;
  /** Every response's status, so a success can update the key's verdict. */
  onResponse?: (status: number) => void;
  /** After every exchange: did the service answer, and if not, why. */
  onReach?: (reach: Reach) => void;
  /** An answer held the API key (the client took it out): the trader is told in the activity log. */
  onKeyEcho?: KeyEchoNotice;
  /** Item names from the game's schema, shared by every workspace of the process. */
  names?: ItemNames;
  /** Where inventories are read: Steam's community site (the default), or the simulator. */
  inventoryUrl?: string;
  /** Inventory read timing (tests shorten it). */
  inventoryTiming?: Partial<InventoryTiming>;
  /** Where pricedb.io is asked (the simulator's in sandbox mode); default pricedb.io itself. */
  pricedbUrl?: string;
}

export function openWorkspace(deps: WorkspaceDeps): Workspace {
  const { clock, settings } = deps;
  const store = deps.lent ? deps.lent.store : openStore(deps.dbPath, { clock });
  const repos = deps.lent ? deps.lent.repos : createRepos(store);
  // The scheduler learns from every response's rate headers; it needs the
  // client to exist first, so the hook is connected right after.
  let noteRateLimit: (info: RateLimitInfo) => void = () => undefined;
  // The service's clock as its Date headers show it: the heartbeat reads refresh_at through it.
  const serviceClock = createServiceClock(clock);
  const client = createMarketplaceClient({
    baseUrl: deps.baseUrl,
    apiKey: deps.apiKey,
    clock,
    serviceClock,
    onRateLimit(info) {
      noteRateLimit(info);
      deps.onResponse?.(info.status);
    },
    ...(deps.onReach ? { onReach: deps.onReach } : {}),
    onKeyEcho: (endpoint) => deps.onKeyEcho?.(endpoint, repos.activity),
  });
  const scheduler = createScheduler({ client, clock });
  noteRateLimit = (info) => scheduler.noteRateLimit(info);
  const accounts = createAccountsService({ repo: repos.accounts, scheduler, clock });
  const heartbeat = createHeartbeat({
    scheduler,
    clock,
    linkedAccounts: () => accounts.automatedLinked(),
    serviceClock,
    intervalMs: settings.heartbeatIntervalMinutes * 60_000,
  });
  // The trades name what sold: the ledger marks those listings (the service cannot list them).
  const sales = createLedgerSales({ store, repos, ownIds: () => accounts.ownIds() });
  const serviceNow = () => clock.now() + (serviceClock.offsetMs() ?? 0);
  const history = createTradeHistory({
    store, repos, ownIds: () => accounts.ownIds(), serviceNow,
    ...(deps.names ? { nameIndex: schemaNameIndex(store, repos.settings, deps.names, ['history']) } : {}),
  });
  // Each load kept as the pending list, in the ledger and in History, a part at a time (History sees a trade as of
  // when its load was asked for: a balance read answered before the load may already show its end).
  const recording = createTradeRecording({ store, repos, sales, history });
  const trades = createTradeWatcher({
    scheduler,
    clock,
    seen: repos.trades.seen,
    announced: repos.trades.announced,
    pollIntervalMs: settings.tradePollSeconds * 1000,
    youngAccountDays: settings.youngAccountDays,
    record: (load) => recording.load(load),
  });
  trades.on('balance', (reading) => void recording.balance(reading));
  const ledger = { ...createLedgerChecker({ store, repos, trades, clock }), on: sales.on, onChanged: (listener: () => void) => store.onLedgerChanged(listener) };
  const current = deps.currentSettings ?? (() => settings);
  const costs = openCosts({ store, repos });
  const drafts = createDraftService({
    store, repos, guard: () => current().priceGuard, bulk: createBulkJobs, references: costs.references, busySlots: (scope) => scheduler.busyOffsets(scope),
    ...(deps.names ? { nameIndex: schemaNameIndex(store, repos.settings, deps.names, ['ledger']) } : {}),
  });
  const csv = createCsvService({ store, repos, drafts, clock, names: deps.names ?? null });
  const apply = createApplyService({
    store, repos, drafts, scheduler,
    automation: { refusePosts: () => current().refuseUnautomatedPosts, status: () => heartbeat.state.status },
    // Buy order creates learn their stored quantities from the watcher's balance reads (one in flight at a time);
    // a listing refused as gone makes the run read the trades, whose sales the ledger marks (see `sales` above).
    balance: trades,
    trades,
  });
  const applyJob = trackApplyJob(apply, drafts, (id) => repos.drafts.get(id) !== null);
  const pricing = openPricing(costs, {
    store, repos, clock, drafts, apply, history, names: deps.names ?? null, guard: () => current().priceGuard,
    ...(deps.pricedbUrl ? { pricedbUrl: deps.pricedbUrl } : {}),
  });
  const ledgerExport = createLedgerExport({ store, drafts, settings: repos.settings, names: deps.names ?? null, now: () => clock.now() });
  const inventory = openInventory({
    store,
    clock,
    baseUrl: deps.inventoryUrl ?? STEAM_COMMUNITY_URL,
    names: deps.names ?? createItemNames(),
    accounts: () => {
      const { main, linked } = accounts.snapshot();
      return [...(main ? [main.account_id] : []), ...linked.map((a) => a.account_id)];
    },
    main: () => accounts.snapshot().main?.account_id ?? null,
    drafts,
    guard: () => current().priceGuard,
    settings: repos.settings,
    ...(deps.inventoryTiming ? { timing: deps.inventoryTiming } : {}),
  });
  const tables = createLedgerTables({
    store,
    drafts,
    settings: repos.settings,
    now: () => clock.now(),
    balance: () => trades.balance()?.balance ?? null,
    ...(deps.names ? { names: deps.names } : {}),
  });

  return {
    mode: deps.mode,
    baseUrl: deps.baseUrl,
    store,
    repos,
    client,
    scheduler,
    heartbeat,
    trades,
    accounts,
    drafts,
    csv,
    apply,
    applyJob,
    tables,
    names: deps.names ?? null,
    history,
    ledgerExport,
    inventory,
    retime(next) {
      heartbeat.setIntervalMs(next.heartbeatIntervalMinutes * 60_000);
      trades.configure({ pollIntervalMs: next.tradePollSeconds * 1000, youngAccountDays: next.youngAccountDays });
    },
    ledger,
    pricing,
    start() {
      // An apply cut short by a crash resumes; lost responses wait for the trader.
      apply.recover();
      // So does a bulk edit cut short between its parts (a failure leaves its journal row for the next start).
      drafts.resumeBulkWrites().catch(() => undefined);
      if (settings.heartbeatEnabled) heartbeat.start();
      trades.start();
      // The accounts list feeds the heartbeat's multiaccounts and names the main account:
      // read at start, and again with backoff until a read succeeds.
      accounts.start();
      pricing.start();
    },
    async close() {
      // Before the scheduler closes: closing it cancels the job, which would end the run as cancelled,
      // and the store must still be open when a batch on its way answers.
      const drained = new AbortController();
      await Promise.race([apply.suspend(), clock.sleep(CLOSE_DRAIN_MS, drained.signal).catch(() => undefined)]);
      drained.abort();
      await pricing.close();
      heartbeat.stop();
      trades.stop();
      // A load being recorded is finished (its trades left the seen set already), within the same bound.
      const recorded = new AbortController();
      await Promise.race([recording.idle(), clock.sleep(CLOSE_DRAIN_MS, recorded.signal).catch(() => undefined)]);
      recorded.abort();
      accounts.stop();
      await inventory.close();
      scheduler.close();
      applyJob.dispose();
      try {
        tables.keepCounts();
      } catch {
        // Only the next start's speed depends on it (a full disk, say): it counts again.
      }
      drafts.dispose();
      await client.close();
      if (!deps.lent) store.close();
    },
  };
}

