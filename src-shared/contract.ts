import { z } from 'zod';
import * as v from './views.ts';
import { CHANNEL_NAMES, EVENT_NAMES, type ChannelName, type EventName } from './channels.ts';

/**
 * The single description of the bridge between the renderer and the main
 * process: every channel the renderer may invoke (input and output schemas)
 * and every event main pushes (payload schema). Channel names are
 * `domain:verb`. The main process parses every input before a service sees
 * it; the preload refuses names that are not listed here; the renderer
 * imports types only.
 */

const none = z.object({}).strict();
const ok = z.object({ ok: z.literal(true) });
const draftRef = z.object({ draftId: z.string().min(1) }).strict();
const jobRef = z.object({ jobId: z.string().min(1) }).strict();

const channel = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

export const channels = {
  'app:status': channel(none, v.appStatus),

  'key:status': channel(none, v.keyStatus),
  // The key travels renderer → main once, to be stored in the OS keychain. It never comes back.
  'key:set': channel(z.object({ key: z.string().trim().min(8).max(256) }).strict(), v.keyStatus),
  'key:remove': channel(none, v.keyStatus),

  'settings:get': channel(none, v.settings),
  'settings:update': channel(v.settingsPatch.strict(), v.settings),

  'heartbeat:state': channel(none, v.heartbeatState),
  'heartbeat:beatNow': channel(none, v.heartbeatState),
  'automation:setEnabled': channel(z.object({ enabled: z.boolean() }).strict(), v.heartbeatState),

  'scheduler:state': channel(none, v.schedulerState),

  'balance:get': channel(none, v.balanceView.nullable()),
  'balance:refresh': channel(none, v.balanceView.nullable()),

  'trades:list': channel(none, z.array(v.watchedTrade)),
  'trades:checkNow': channel(none, z.array(v.watchedTrade)),
  'trades:openOffer': channel(z.object({ tradeId: z.string().regex(/^\d{1,20}$/) }).strict(), ok),

  'accounts:list': channel(none, v.accountsView),
  'accounts:refresh': channel(none, v.accountsView),
  'accounts:setTradeUrl': channel(v.tradeUrlInput.strict(), v.accountsView),
  'accounts:setAutomated': channel(z.object({ id64: z.string().regex(/^\d{1,20}$/), automated: z.boolean() }).strict(), v.accountsView),

  'listings:list': channel(none, z.array(v.listingRow)),
  'buyOrders:list': channel(none, z.array(v.buyOrderRow)),

  'drafts:list': channel(none, z.array(v.draftSummary)),
  'drafts:create': channel(z.object({ name: z.string().trim().min(1).max(120) }).strict(), v.draftSummary),
  'drafts:rename': channel(z.object({ draftId: z.string().min(1), name: z.string().trim().min(1).max(120) }).strict(), v.draftSummary),
  'drafts:discard': channel(draftRef, ok),
  'drafts:changes': channel(draftRef, z.array(v.changeView)),
  'drafts:addChanges': channel(z.object({ draftId: z.string().min(1), changes: z.array(v.changeInput).max(100_000) }).strict(), v.addChangesResult),
  'drafts:removeChanges': channel(z.object({ draftId: z.string().min(1), changeIds: z.array(z.string()).max(200_000) }).strict(), ok),
  'drafts:bulk': channel(
    z.object({ draftId: z.string().min(1), target: z.enum(['listings', 'buyOrders']), selection: v.selection, op: v.bulkOp }).strict(),
    v.bulkResult,
  ),
  'drafts:review': channel(draftRef, v.reviewView),
  'drafts:exportCsv': channel(draftRef, z.object({ csv: z.string() })),
  'drafts:importCsv': channel(
    z.object({ draftId: z.string().min(1).optional(), kind: z.enum(['listings', 'buyOrders', 'draft']), csv: z.string().max(50_000_000) }).strict(),
    v.csvPreview,
  ),
  'drafts:importCommit': channel(z.object({ token: z.string().min(1) }).strict(), z.object({ imported: z.number().int() })),
  'drafts:apply': channel(draftRef, v.applyProgress),

  'apply:progress': channel(none, v.applyProgress.nullable()),
  'apply:pause': channel(jobRef, v.applyProgress),
  'apply:resume': channel(jobRef, v.applyProgress),
  'apply:cancel': channel(jobRef, v.applyProgress),
  'apply:unknownOutcomes': channel(none, z.array(v.unknownOutcomeView)),
  'apply:resolve': channel(z.object({ id: z.string().min(1), choice: v.resolutionChoice }).strict(), z.array(v.unknownOutcomeView)),

  'activity:list': channel(
    z.object({ text: z.string().max(200).optional(), outcome: z.string().max(40).optional(), limit: z.number().int().min(1).max(5000).optional() }).strict(),
    z.array(v.activityEntry),
  ),

  // ---- Issue #10 (engine): ledger truth ----
  /** Re-reads trades and balance through the scheduler and lists the ledger rows whose state is in doubt. */
  'ledger:check': channel(none, v.ledgerCheck),
} as const;

export const events = {
  'app:status': v.appStatus,
  'key:status': v.keyStatus,
  'settings:changed': v.settings,
  'heartbeat:state': v.heartbeatState,
  'scheduler:state': v.schedulerState,
  'balance:changed': v.balanceView,
  'trades:changed': z.array(v.watchedTrade),
  'accounts:changed': v.accountsView,
  'ledger:changed': z.object({ listings: z.boolean(), buyOrders: z.boolean() }),
  'drafts:changed': z.object({ draftId: z.string() }),
  'apply:progress': v.applyProgress,
  'apply:unknownOutcomes': z.array(v.unknownOutcomeView),
  'activity:added': v.activityEntry,
  /** Main asks the window to show something, e.g. after a notification click. */
  'app:navigate': z.object({ view: z.string(), tradeId: z.string().optional() }),
} as const;

export type Channels = typeof channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;
export type Events = typeof events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export { CHANNEL_NAMES, EVENT_NAMES };
export type { ChannelName, EventName };

// The names list the preload uses and this contract must be the same, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: Same<ChannelName, keyof typeof channels> & Same<EventName, keyof typeof events> = true;
void namesMatch;

import type { ErrorView } from './errors.ts';
export type { ErrorView };
/** What every invoke resolves to: handlers never throw across the bridge. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ErrorView };

/** The whole surface the preload exposes as `window.api`. */
export interface DeskApi {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export type KeyStatus = z.output<typeof v.keyStatus>;
export type AppStatus = z.output<typeof v.appStatus>;
export type Settings = z.output<typeof v.settings>;
export type HeartbeatView = z.output<typeof v.heartbeatState>;
export type SchedulerView = z.output<typeof v.schedulerState>;
export type BalanceView = z.output<typeof v.balanceView>;
export type WatchedTradeView = z.output<typeof v.watchedTrade>;
export type AccountView = z.output<typeof v.accountView>;
export type AccountsView = z.output<typeof v.accountsView>;
export type ListingRow = z.output<typeof v.listingRow>;
export type BuyOrderRow = z.output<typeof v.buyOrderRow>;
export type ChangeInput = z.input<typeof v.changeInput>;
export type ChangeView = z.output<typeof v.changeView>;
export type DraftSummary = z.output<typeof v.draftSummary>;
export type Selection = z.input<typeof v.selection>;
export type BulkOp = z.input<typeof v.bulkOp>;
export type BulkResult = z.output<typeof v.bulkResult>;
export type ReviewView = z.output<typeof v.reviewView>;
export type ApplyProgressView = z.output<typeof v.applyProgress>;
export type UnknownOutcomeView = z.output<typeof v.unknownOutcomeView>;
export type ActivityEntry = z.output<typeof v.activityEntry>;
export type CsvPreview = z.output<typeof v.csvPreview>;
export type LedgerCheckView = z.output<typeof v.ledgerCheck>;
