import { z } from 'zod';
import type { EventName } from '../../../src-shared/channels.ts';
import { applyJob } from '../../../src-shared/draft-views.ts';
import { buyOrderTrade, marketTrade } from '../../../src-shared/trades.ts';
import { profileProblem } from '../../../src-shared/profile.ts';
import { appStatus, heartbeatState, schedulerState } from '../../../src-shared/views.ts';
import { method } from './methods.ts';
import type { KeychainState } from '../secrets.ts';
import { settingsPatchSchema, settingsSchema } from '../settings/settings.ts';
import type { LogFields, LogLevel } from '../shell/app-log.ts';
import type { DiagnosticsInput } from '../shell/diagnostics.ts';
import type { TradeForNotice, TradeRef } from '../shell/notification-groups.ts';
import type { DeskNotice } from '../shell/reprice-notice.ts';
import type { ShellState } from '../shell/tray-state.ts';
import { deskWorkerConfig } from './desk-worker-config.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The data boundary's method maps, shared by both sides: what main may call
 * in the data worker (`DESK_METHODS`: the desk's commands for the shell),
 * what the worker may ask of main (`MAIN_METHODS`: the keychain), and the
 * events the worker pushes (`WORKER_EVENTS`). The worker implements the first
 * (`worker/desk-worker.ts`), main the second (`main-thread/desk-connection.ts`);
 * each side parses what it receives with these schemas. The bridge's calls
 * and events cross typed by the contract (`bridge-calls.ts`).
 */

const shellState = z.object({
  heartbeat: heartbeatState.shape.status,
  automationPaused: z.boolean(),
  tradesNeedingAction: z.number().int().nonnegative(),
  job: applyJob.pick({ state: true, itemsTotal: true, itemsDone: true, itemsFailed: true, itemsUnknown: true, etaMs: true }).nullable(),
  blocked: z.enum(['auth', 'forbidden', 'no_key']).nullable().optional(),
  sandbox: z.boolean().optional(),
  update: z.object({ version: z.string(), restartPending: z.boolean() }).nullable().optional(),
}) satisfies z.ZodType<ShellState>;

/** What the tray, taskbar, notifications and quit read of the desk; `appliesRunning`: applies under way (running, paused or being cancelled). */
export const deskShellView = lazySchema(() => z.object({
  tray: shellState,
  settings: settingsSchema.pick({ serviceUrl: true, notificationsEnabled: true, autoUpdate: true, heartbeatEnabled: true, startAtLogin: true }),
  appliesRunning: z.number().int().nonnegative(),
}));
export type DeskShellView = z.infer<typeof deskShellView>;

/**
 * The desk's part of a diagnostics bundle (the shell adds versions, updates
 * and logs): its settings, key state, status, rate budget, heartbeat and applies.
 */
export const deskDiagnostics = z.object({
  settings: settingsSchema,
  key: z.object({ set: z.boolean(), state: z.string(), keychainAvailable: z.boolean() }),
  status: appStatus.omit({ stamp: true }),
  rateBudget: schedulerState,
  heartbeat: heartbeatState,
  applies: z.array(applyJob.nullable()),
  unknownOutcomes: z.number().int().nonnegative(),
}) satisfies z.ZodType<Pick<DiagnosticsInput, 'settings' | 'key' | 'status' | 'rateBudget' | 'heartbeat' | 'applies' | 'unknownOutcomes'>>;
export type DeskDiagnostics = z.infer<typeof deskDiagnostics>;

const none = z.tuple([]);
const done = z.void();

/**
 * Opening a profile can migrate and back up a large store first; closing
 * checkpoints it; the shell's own commands may wait for a rate slot of the
 * service (a trade check, a beat) behind the client's 30-s interactive
 * deadline. Every other call answers in well under a second.
 */
const OPEN_DEADLINE_MS = 120_000;
const SERVICE_DEADLINE_MS = 60_000;

export const DESK_METHODS = {
  desk: {
    /** The desk's first view, or why the profile could not be opened (the recovery screen shows it). */
    open: method(z.tuple([deskWorkerConfig]), z.object({ view: deskShellView.nullable(), problem: profileProblem.nullable() }), { deadlineMs: OPEN_DEADLINE_MS }),
    view: method(none, deskShellView),
    updateSettings: method(z.tuple([settingsPatchSchema]), done, { deadlineMs: SERVICE_DEADLINE_MS }),
    checkTradesNow: method(none, done, { deadlineMs: SERVICE_DEADLINE_MS }),
    beatNow: method(none, done, { deadlineMs: SERVICE_DEADLINE_MS }),
    setOnline: method(z.tuple([z.boolean()]), done),
    diagnostics: method(none, deskDiagnostics),
    suspendApplies: method(none, done, { deadlineMs: SERVICE_DEADLINE_MS }),
    close: method(none, done, { deadlineMs: SERVICE_DEADLINE_MS }),
  },
};

/** A keychain call may wait for the trader to unlock the keyring in the system's own prompt. */
const KEYCHAIN_DEADLINE_MS = 120_000;
const account = z.string().min(1).max(200);

export const MAIN_METHODS = {
  secrets: {
    state: method(none, z.enum(['available', 'missing', 'locked']) satisfies z.ZodType<KeychainState>, { deadlineMs: KEYCHAIN_DEADLINE_MS }),
    get: method(z.tuple([account]), z.string().nullable(), { deadlineMs: KEYCHAIN_DEADLINE_MS }),
    set: method(z.tuple([account, z.string()]), done, { deadlineMs: KEYCHAIN_DEADLINE_MS }),
    delete: method(z.tuple([account]), z.boolean(), { deadlineMs: KEYCHAIN_DEADLINE_MS }),
  },
};

const noticeExtra = { youngPartner: z.boolean().optional(), partnerAgeDays: z.number().int().optional() };
const noticeFields = { trade_type: true, trade_id: true, status: true, total: true, items: true, verification_code: true } as const;
const tradeForNotice = z.discriminatedUnion('trade_type', [
  marketTrade.pick(noticeFields).extend(noticeExtra),
  buyOrderTrade.pick(noticeFields).extend(noticeExtra),
]) satisfies z.ZodType<TradeForNotice>;
const deskNotice = z.object({ title: z.string().max(200), body: z.string().max(1_000), view: z.literal('pricing') }) satisfies z.ZodType<DeskNotice>;
const tradeRef = z.object({ trade_type: z.enum(['market', 'buy_order']), trade_id: z.string() }) satisfies z.ZodType<TradeRef>;

/**
 * A log line the worker asks main to write (main's log scrubs and rotates).
 * Its fields are what the log itself takes (`LogFields`: any value, errors
 * among them), since main's log cleans each value before it writes it.
 */
export const workerLogLine = lazySchema(() => z.object({
  level: z.enum(['debug', 'info', 'warn', 'error']) satisfies z.ZodType<LogLevel>,
  message: z.string(),
  fields: z.record(z.string(), z.unknown()).optional() satisfies z.ZodType<LogFields | undefined>,
}));
export type WorkerLogLine = z.infer<typeof workerLogLine>;

/**
 * The worker's own events, for main. The bridge's events cross beside them,
 * each under its own name, read by the contract's map (`bridge-calls.ts`).
 */
export const WORKER_EVENTS = {
  /** The shell's view changed. */
  view: deskShellView,
  /** Trades needing action, as the watcher found them: the notifier announces the new ones. */
  needsAction: z.array(tradeForNotice),
  /** Every pending trade: announcements of the others are forgotten. */
  pending: z.array(tradeRef),
  /** A notification of the desk's own (a scheduled reprice left marked changes waiting). */
  notice: deskNotice,
  /** The stored key, so main's log can scrub it (null when none is set). */
  key: z.string().nullable(),
  log: workerLogLine,
  /** A link the trader asked to open in the browser (main checks it against its allowlist). */
  openLink: z.string().max(4_000),
  /** The trader's choice on the recovery screen opened the profile: the desk's first view. */
  opened: deskShellView,
};
export type WorkerEventName = keyof typeof WORKER_EVENTS;

// A worker event and a bridge event never share a name: each is read by its own map.
const namesApart: [WorkerEventName & EventName] extends [never] ? true : false = true;
void namesApart;
