import { z } from 'zod';
import { accountId } from './fields.ts';
import * as d from './draft-views.ts';
import { bulkOp, resolutionChoice } from './drafts.ts';
import type { ErrorView } from './errors.ts';
import { ledgerDomain, ledgerFilter, ledgerPage, ledgerQuery, ledgerSelection, ledgerSort, stamp } from './ledger.ts';
import * as v from './views.ts';
import { afterBulkWrites, byDesk, byMain, channel, duringRecovery, none, ok, type ChannelFacts } from './channel-facts.ts';
import { pricingChannels, pricingEvents } from './contract-pricing.ts';
import { CHANNEL_NAMES, EVENT_NAMES, type ChannelName, type EventName } from './channels.ts';
import { CSV_PART_MAX_CHARS } from './csv-parts.ts';
import { csvDialectChoice, csvExportFormat } from './csv-dialect.ts';
import { updateView } from './updates.ts';
import { ledgerCheckSchema } from './ledger-check.ts';
import { backupsList, profileProblem, recoverInput, restoreBackupInput, restoreBackupResult } from './profile.ts';
import { csvFile, historyChannels } from './contract-history.ts';
import { itemFacetCounts } from './item-facets.ts';
import { itemSearch, itemSearchInput, itemVariants, itemVariantsInput } from './item-search.ts';
import * as inv from './inventory.ts';
import { alertsChannels, alertsEvents } from './contract-alerts.ts';
import { accessChannels } from './contract-access.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The single description of the bridge between the renderer and the main
 * process: every channel the renderer may invoke (input and output schemas,
 * and its facts: who answers it, whether it waits for bulk writes) and every
 * event main pushes (payload schema). Channel names are
 * `domain:verb`. The main process parses every input before a service sees
 * it; the preload refuses names that are not listed in channels.ts; the
 * renderer imports types only.
 *
 * Main owns the truth. Every reply and event carries the `stamp` of the state
 * it was read from; no reply or event carries a whole ledger or a whole
 * draft: tables ask for the page they show, and selections are values main
 * understands.
 */

const id = lazySchema(() => z.string().min(1).max(100));
const draftRef = z.object({ draftId: id }).strict();
const jobRef = z.object({ jobId: id }).strict();
const selectionInput = z.object({ domain: ledgerDomain, selection: ledgerSelection }).strict();

/**
 * One part of a CSV file to import (csv-parts.ts says why a file crosses in
 * parts); `seq` numbers an upload's parts from 1, so main takes them only in
 * order and whole; `last` ends the file.
 */
const csvPart = { seq: z.number().int().min(1), text: z.string().max(CSV_PART_MAX_CHARS), last: z.boolean() };

export const channels = {
  'app:status': channel(none, v.appStatus, byDesk),

  'key:status': channel(none, v.keyStatus, byDesk),
  // The key travels renderer → main once, to be stored in the OS keychain. It never comes back.
  'key:set': channel(lazySchema(() => z.object({ key: z.string().trim().min(8).max(256) }).strict()), v.keyStatus, byDesk),
  'key:remove': channel(none, v.keyStatus, byDesk),

  'settings:get': channel(none, v.settings, byDesk),
  'settings:update': channel(v.settingsPatch.strict(), v.settings, byDesk),

  'heartbeat:state': channel(none, v.heartbeatState, byDesk),
  'heartbeat:beatNow': channel(none, v.heartbeatState, byDesk),
  'automation:setEnabled': channel(lazySchema(() => z.object({ enabled: z.boolean() }).strict()), v.heartbeatState, byDesk),

  'scheduler:state': channel(none, v.schedulerState, byDesk),

  'balance:get': channel(none, v.balanceView, byDesk),
  'balance:refresh': channel(none, v.balanceView, byDesk),

  'trades:list': channel(none, v.tradesView, byDesk),
  'trades:checkNow': channel(none, v.tradesView, byDesk),
  'trades:openOffer': channel(lazySchema(() => z.object({ tradeId: z.string().regex(/^\d{1,20}$/) }).strict()), ok, byDesk),
  /** A trade partner's profile on Steam (account age, trade holds), backpack.tf (trading history) or SteamRep (reputation), in the system browser. */
  'trades:openPartnerPage': channel(lazySchema(() => z.object({ id64: z.string().regex(/^\d{17}$/), site: z.enum(['steam', 'backpack', 'steamrep']) }).strict()), ok, byDesk),

  'accounts:list': channel(none, v.accountsView, byDesk),
  'accounts:refresh': channel(none, v.accountsView, byDesk),
  'accounts:setTradeUrl': channel(v.tradeUrlInput.strict(), v.accountsView, byDesk),
  'accounts:setAutomated': channel(lazySchema(() => z.object({ id64: z.string().regex(/^\d{1,20}$/), automated: z.boolean() }).strict()), v.accountsView, byDesk),

  // The ledger tables: one viewport at a time, edits over a selection, into the current draft.
  'ledger:page': channel(ledgerQuery, ledgerPage, byDesk),
  /** Keys of rows [offset, offset + limit) in table order: a shift-click range. */
  'ledger:keys': channel(
    lazySchema(() => z.object({ domain: ledgerDomain, filter: ledgerFilter.default({}), sort: ledgerSort.nullable().default(null), offset: z.number().int().min(0), limit: z.number().int().min(1).max(20_000) }).strict()),
    lazySchema(() => z.object({ keys: z.array(z.string()) })),
    byDesk,
  ),
  'ledger:preview': channel(selectionInput.extend({ op: bulkOp }).strict(), d.bulkOutcome, byDesk),
  'ledger:bulk': channel(selectionInput.extend({ op: bulkOp }).strict(), d.bulkOutcome, afterBulkWrites),
  'ledger:delete': channel(selectionInput, d.addChangesResult, afterBulkWrites),
  'ledger:revert': channel(selectionInput, lazySchema(() => z.object({ draftId: z.string().nullable(), reverted: z.number().int() })), afterBulkWrites),
  'ledger:deleteAllImpact': channel(lazySchema(() => z.object({ domain: ledgerDomain, activeOnly: z.boolean() }).strict()), d.deleteAllImpact, byDesk),
  /** The ledger's rows matching a filter (null: all of them) as a CSV file the import reads back unchanged. */
  'ledger:exportCsv': channel(lazySchema(() => z.strictObject({ domain: ledgerDomain, filter: ledgerFilter.nullable(), format: csvExportFormat.default('comma') })), csvFile, byDesk),
  /** The qualities, effects, killstreak tiers and wears a table's rows hold, with counts, for its filters. */
  'ledger:facets': channel(z.strictObject({ domain: ledgerDomain }), itemFacetCounts, byDesk),

  /** A name typed where a SKU is asked for: the names it may start, and what it resolves to. */
  'items:search': channel(itemSearchInput, itemSearch, byDesk),
  /** What else the item of a SKU comes as (quality, effect, killstreak, ...), each with its SKU. */
  'items:variants': channel(itemVariantsInput, itemVariants, byDesk),

  'drafts:list': channel(none, d.draftsView, byDesk),
  'drafts:create': channel(lazySchema(() => z.object({ name: z.string().trim().min(1).max(120) }).strict()), d.draftSummary, byDesk),
  'drafts:rename': channel(lazySchema(() => z.object({ draftId: id, name: z.string().trim().min(1).max(120) }).strict()), d.draftSummary, byDesk),
  'drafts:select': channel(draftRef, d.draftSummary, byDesk),
  'drafts:discard': channel(draftRef, ok, afterBulkWrites),
  /** Into the current draft (made on the spot when there is none). */
  'drafts:addChanges': channel(z.object({ changes: d.changeInputs }).strict(), d.addChangesResult, afterBulkWrites),
  'drafts:removeChanges': channel(lazySchema(() => z.object({ draftId: id, changeIds: z.array(z.string().max(220)).max(200_000) }).strict()), lazySchema(() => z.object({ removed: z.number().int() })), afterBulkWrites),
  /** Takes every change the service refused out of the draft. */
  'drafts:removeFailed': channel(draftRef, lazySchema(() => z.object({ removed: z.number().int() })), afterBulkWrites),
  'drafts:review': channel(draftRef, d.draftReview, afterBulkWrites),
  'drafts:page': channel(d.draftPageQuery, d.draftPage, byDesk),
  'drafts:exportCsv': channel(lazySchema(() => draftRef.extend({ format: csvExportFormat.default('comma') }).strict()), z.object({ csv: z.string() }), afterBulkWrites),
  /**
   * A CSV file checked as it arrives, a part at a time, in order: the first
   * part names the kind of import and starts an upload (dropping one under
   * way), the next ones name the upload. The answer to the last is the
   * preview (null before); nothing goes into the draft until it is committed.
   */
  'drafts:importCsvPart': channel(
    lazySchema(() => z.union([
      z.strictObject({ kind: z.enum(['listings', 'buyOrders', 'draft']), dialect: csvDialectChoice.optional(), ...csvPart }),
      z.strictObject({ upload: id, ...csvPart }),
    ])),
    z.object({ upload: id, preview: d.csvPreview.nullable() }),
    byDesk,
  ),
  /**
   * `refused`: lines refused in all, those the check refused included;
   * `changedSince`: how many more than the check refused (the ledger or draft changed since).
   */
  'drafts:importCommit': channel(z.object({ token: id }).strict(), lazySchema(() => z.object({ imported: z.number().int(), refused: z.number().int(), changedSince: z.number().int() })), afterBulkWrites),
  'drafts:apply': channel(lazySchema(() => draftRef.extend({ confirmGuard: d.guardConfirmation.optional() }).strict()), d.applyState, afterBulkWrites),

  'apply:state': channel(none, d.applyState, byDesk),
  'apply:pause': channel(jobRef, d.applyState, byDesk),
  'apply:resume': channel(jobRef, d.applyState, byDesk),
  'apply:cancel': channel(jobRef, d.applyState, byDesk),
  'apply:unknownOutcomes': channel(none, d.unknownOutcomesView, byDesk),
  'apply:resolve': channel(z.object({ id, choice: resolutionChoice }).strict(), d.unknownOutcomesView, byDesk),
  /** Makes a new draft, made current, that takes back what an ended apply did; nothing is sent. */
  'apply:undo': channel(lazySchema(() => z.object({ runId: z.number().int().positive() }).strict()), d.undoResult, byDesk),
  /** Makes a new draft, made current, that lists again the assets of the listings an ended apply deleted; nothing is sent. */
  'apply:relistDeleted': channel(lazySchema(() => z.object({ runId: z.number().int().positive() }).strict()), d.relistResult, byDesk),

  'activity:list': channel(
    lazySchema(() => z.object({ text: z.string().max(200).optional(), outcome: z.string().max(40).optional(), limit: z.number().int().min(1).max(5000).optional() }).strict()),
    z.array(v.activityEntry),
    byDesk,
  ),

  // Support and updates.
  /** Opens the folder of the log files in the system's file manager. */
  'support:openLogsFolder': channel(none, ok, byMain),
  /** Asks where to save, then writes the bug-report bundle (never the key); `path` is null when cancelled. */
  'support:saveDiagnostics': channel(none, lazySchema(() => z.object({ saved: z.boolean(), path: z.string().nullable() })), byMain),
  'updates:state': channel(none, updateView, byMain),
  'updates:check': channel(none, updateView, byMain),
  /** Restarts into the downloaded update now, or as soon as the running apply ends. */
  'updates:restart': channel(none, updateView, byMain),
  // ---- Engine: ledger truth ----
  /** Re-reads trades and balance through the scheduler and lists the ledger rows whose state is in doubt. */
  'ledger:check': channel(none, ledgerCheckSchema, byDesk),
  // ---- First run ----
  /**
   * Asks the service once with the stored key (the live service, in sandbox
   * mode too) and answers the key's status with what the test found.
   */
  'key:test': channel(none, v.keyStatus, byDesk),
  // ---- A profile that could not be opened ----
  /** Why the profile could not be opened and what the trader may do; null while it is open. */
  'profile:problem': channel(none, z.object({ problem: profileProblem.nullable() }), duringRecovery),
  /**
   * Carries out the trader's choice (restore the backup they chose, start
   * fresh, try again) and opens the profile: `opened`, or the problem it still has.
   */
  'profile:recover': channel(recoverInput, lazySchema(() => z.object({ opened: z.boolean(), problem: profileProblem.nullable() })), duringRecovery),
  // ---- Backups of the open profile ----
  /** Every backup of the profile, newest first, with what each holds; and why the last daily one failed. */
  'backups:list': channel(none, backupsList, byDesk),
  /**
   * Restores the chosen backup over the open profile: backs the profile up
   * as it is, closes the desk, puts the backup in place and opens it again.
   */
  'backups:restore': channel(restoreBackupInput, restoreBackupResult, byDesk),
  // ---- The inventory picker ----
  /** Each account's read and what the kept items hold; `ensureFresh` reads (in the background) what is old or was never read. */
  'inventory:state': channel(lazySchema(() => z.object({ ensureFresh: z.boolean().optional() }).strict()), inv.inventoryState, byDesk),
  /** Reads an account's inventory again (every account's when none is named) as soon as Steam and the least interval allow. */
  'inventory:refresh': channel(lazySchema(() => z.object({ account: accountId.optional() }).strict()), inv.inventoryState, byDesk),
  'inventory:page': channel(inv.inventoryQuery, inv.inventoryPage, byDesk),
  /** Asset IDs of items [offset, offset + limit) in table order: a shift-click range. */
  'inventory:keys': channel(
    lazySchema(() => z.object({ filter: inv.inventoryFilter.default({}), sort: inv.inventorySort.nullable().default(null), offset: z.number().int().min(0), limit: z.number().int().min(1).max(20_000) }).strict()),
    lazySchema(() => z.object({ keys: z.array(z.string()) })),
    byDesk,
  ),
  'inventory:preview': channel(z.object({ selection: inv.inventorySelection, pricing: inv.inventoryPricing }).strict(), inv.inventoryPricingOutcome, byDesk),
  /** The picked items, priced, into the current draft (made on the spot when there is none). */
  'inventory:draft': channel(inv.inventoryDraftInput, inv.inventoryDraftOutcome, afterBulkWrites),
  /** Asset IDs typed by hand against the account's inventory as read: which are not in it. */
  'inventory:checkAssets': channel(inv.typedAssetsInput, inv.typedAssetsCheck, byDesk),
  /** Asset IDs typed by hand into the draft at one price, each with its SKU where the inventory knows it. */
  'inventory:draftAssets': channel(inv.typedAssetsDraftInput, inv.typedAssetsDraftOutcome, afterBulkWrites),
  // ---- History: what sold and what it earned ----
  ...historyChannels,
  // ---- Alerts off the desktop ----
  ...alertsChannels,
  // ---- Pricing: price sources, repricing rules, what each item cost ----
  ...pricingChannels,
  // ---- Who may reach the desk (access.ts) ----
  ...accessChannels,
} as const;

export const events = {
  'app:status': v.appStatus,
  'key:status': v.keyStatus,
  'settings:changed': v.settings,
  'heartbeat:state': v.heartbeatState,
  'scheduler:state': v.schedulerState,
  'balance:changed': v.balanceView,
  'trades:changed': v.tradesView,
  'accounts:changed': v.accountsView,
  /** The ledger changed: a table showing an older stamp asks for its page again. */
  'ledger:changed': z.object({ stamp }),
  /** A draft changed (its changes, its name, which is current, or it was made or discarded). */
  'drafts:changed': z.object({ stamp, draftId: z.string().nullable() }),
  'apply:state': d.applyState,
  'apply:unknownOutcomes': d.unknownOutcomesView,
  /** An entry added to the activity log, or its outcome learnt (same id): pushed in batches, oldest first. */
  'activity:added': v.activityAdded,
  /** Trades or balance readings were recorded: a History screen showing an older stamp asks again. */
  'history:changed': z.object({ stamp }),
  /** Main asks the window to show something, e.g. after a notification click. */
  'app:navigate': z.object({ view: z.string(), tradeId: z.string().optional() }),
  // Updates.
  'updates:state': updateView,
  /** An inventory read moved on (`items`: a new copy is in, so pages change): screens showing it ask again. */
  'inventory:changed': z.object({ stamp, items: z.boolean() }),
  ...alertsEvents,
  ...pricingEvents,
  /** A link main allowed but cannot open itself (the server shell has no desktop): the page that asked opens it. */
  'app:openLink': z.object({ url: z.string().max(2_000) }),
} as const;

export type Channels = typeof channels;
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>;
/** The input as the router hands it to the handler: parsed by the channel's schema, defaults filled in. */
export type ParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>;
export type Events = typeof events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
/** Every event's payload by name: a map, so the payload of an event a type parameter names keeps its bounds (a stamp). */
export type EventPayloads = { [E in EventName]: EventPayload<E> };

/** The channels whose facts include `F`. */
type ChannelsWith<F> = { [C in ChannelName]: Channels[C] extends F ? C : never }[ChannelName];
export type DeskChannel = ChannelsWith<{ readonly answeredBy: 'desk' }>;
export type MainChannel = ChannelsWith<{ readonly answeredBy: 'main' }>;
export type RecoveryChannel = ChannelsWith<{ readonly duringRecovery: true }>;

/** A channel's facts, read at run time. */
export function factsOf(channel: ChannelName): ChannelFacts {
  return channels[channel];
}

/** Whether the desk answers `channel` (else main does). */
export function isDeskChannel(channel: ChannelName): channel is DeskChannel {
  return factsOf(channel).answeredBy === 'desk';
}

/** Whether `name` is a channel of the contract (its own key, not one every object inherits). */
export function isChannelName(name: string): name is ChannelName {
  return Object.hasOwn(channels, name);
}

export { CHANNEL_NAMES, EVENT_NAMES };
export type { ChannelFacts };
export type { ChannelName, EventName, ErrorView };

// The names list the preload uses and this contract must be the same, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: Same<ChannelName, keyof typeof channels> & Same<EventName, keyof typeof events> = true;
void namesMatch;

/** What every invoke resolves to: handlers never throw across the bridge. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ErrorView };

/** The whole surface the preload exposes as `window.api`. */
export interface DeskApi {
  invoke<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

export type * from './contract-views.ts';
