import { z } from 'zod';
import { accountId, flag01, tradeUrl } from './fields.ts';
import { errorView as sharedErrorView } from './errors.ts';
import { bulkOp as draftBulkOp, changeInput as draftChangeInput, resolutionChoice, selection as bulkSelection } from './drafts.ts';
import { buyOrderTrade, marketTrade } from './trades.ts';
import { keyStatusSchema, settingsSchema } from './settings.ts';
import { ledgerCheckSchema } from './ledger-check.ts';

/**
 * The view models that cross the bridge: what the renderer is shown and what
 * it may ask for. Field rules come from the API vocabulary, so a value the
 * renderer sends is checked by the same rule the client applies.
 * Nothing here can carry the API key: the renderer only learns whether one is
 * set and its last four characters.
 */

/** An error as the renderer sees it: any kind of the shared closed set. */
export const errorView = sharedErrorView;

export const mode = z.enum(['sandbox', 'live']);

export const keyStatus = keyStatusSchema;

export const appStatus = z.object({
  mode,
  online: z.boolean(),
  version: z.string(),
  profile: z.string(),
  /** Where requests go: the live service or the embedded sandbox's loopback URL. */
  serviceUrl: z.string(),
});

export const settings = settingsSchema;
export const settingsPatch = settings.partial();

export const heartbeatState = z.object({
  status: z.enum(['active', 'expiring', 'lapsed', 'off']),
  refreshAt: z.number().nullable(),
  lastBeatAt: z.number().nullable(),
  nextBeatAt: z.number().nullable(),
  accounts: z.array(z.string()),
  lastError: errorView.nullable(),
  // Issue #10: the service's clock minus the desk's (ms), from its Date headers; null before one was
  // seen. Show a warning when it is more than a minute either way.
  clockOffsetMs: z.number().nullable().optional(),
});

export const schedulerState = z.object({
  blocked: z.enum(['auth', 'forbidden']).nullable(),
  /** Requests sent in the last minute against the global limit. */
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  /** When a 429 made us wait: until when (ms epoch). */
  pausedUntil: z.number().nullable(),
});

export const balanceView = z.object({
  balance: z.number().int(),
  pending_balance: z.number().int(),
  readAt: z.number(),
});

const tradeExtras = {
  needsAction: z.boolean(),
  partnerAgeDays: z.number(),
  youngPartner: z.boolean(),
};
export const watchedTrade = z.discriminatedUnion('trade_type', [
  marketTrade.extend(tradeExtras),
  buyOrderTrade.extend(tradeExtras),
]);

export const accountView = z.object({
  id64: z.string(),
  role: z.enum(['main', 'linked']),
  tradeUrl: z.string().nullable(),
  /** Whether the heartbeat covers this account (always true for main). */
  automated: z.boolean(),
});
/**
 * Issue #10: how a read the desk cannot do without (the accounts, the
 * balance) is going: "reading accounts, retrying in 40 s" and why.
 */
export const readState = z.object({
  phase: z.enum(['idle', 'reading', 'retrying', 'done', 'failed']),
  nextAttemptAt: z.number().nullable(),
  lastError: errorView.nullable(),
  failures: z.number().int().nonnegative(),
  readAt: z.number().nullable(),
});

export const accountsView = z.object({
  main: accountView.nullable(),
  linked: z.array(accountView),
  readAt: z.number().nullable(),
  // Issue #10: the state of reading the accounts list (retried with backoff until it succeeds).
  read: readState.optional(),
});

export const listingRow = z.object({
  /** Null only when a create's outcome was accepted without a known ID. */
  listing_id: z.string().nullable(),
  asset_id: z.string(),
  sku: z.string(),
  price: z.number().int(),
  promoted: flag01,
  game: z.string(),
  user_note: z.string(),
  account: z.string(),
  /** Issue #10 adds 'sold_in_trade' (a pending trade took it), 'sold' and 'not_on_service' (the service no longer has it). */
  state: z.string(),
  updatedAt: z.number(),
  // Issue #10: why a listing is sold or not on the service (the trade, the service's refusal), and the trade that sold it.
  stateReason: z.string().optional(),
  tradeId: z.string().optional(),
});

export const buyOrderRow = z.object({
  sku: z.string(),
  account: z.string(),
  price: z.number().int(),
  quantity: z.number().int(),
  active: flag01,
  user_note: z.string(),
  filled: z.number().int(),
  /** Created without knowing the balance: the service may have cut it to floor(balance / price). */
  quantityMayBeCut: z.boolean(),
  updatedAt: z.number(),
});

/** One change a trader can put into a draft: the draft's own input schema. */
export const changeInput = draftChangeInput;

export const changeView = z.object({
  /** The change's key in its draft (one change per listing, buy order or delete). */
  id: z.string(),
  kind: z.string(),
  /** The asset ID or SKU the change is about; empty for delete-all. */
  target: z.string(),
  fields: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'sending', 'done', 'failed', 'unknown']),
  error: z.string().nullable(),
  updatedAt: z.number(),
});

export const draftSummary = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  changeCount: z.number().int(),
  failedCount: z.number().int(),
  unknownCount: z.number().int(),
  doneCount: z.number().int(),
});

export const selection = bulkSelection;
export const bulkOp = draftBulkOp;

export const bulkResult = z.object({
  changed: z.number().int(),
  matched: z.number().int(),
  refused: z.array(z.object({ id: z.string(), reason: z.string() })),
});

export const addChangesResult = z.object({
  added: z.number().int(),
  errors: z.array(z.object({ index: z.number().int(), target: z.string(), field: z.string(), message: z.string() })),
});

export const reviewView = z.object({
  draftId: z.string(),
  /** All rows of the draft; `rows` holds the first page of them. */
  totalRows: z.number().int(),
  rows: z.array(
    z.object({
      changeId: z.string(),
      kind: z.string(),
      target: z.string(),
      fields: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
      /** Something to know before applying (a quantity the balance may cut, what a delete-all removes). */
      note: z.string().nullable(),
    }),
  ),
  requestsPerEndpoint: z.record(z.string(), z.number().int()),
  etaMs: z.number().nonnegative(),
  /** What delete-all changes would remove, counted from the ledger. */
  removes: z.object({ listings: z.number().int(), buyOrders: z.number().int() }),
});

export const applyProgress = z.object({
  jobId: z.string(),
  draftId: z.string(),
  state: z.enum(['running', 'paused', 'cancelling', 'done', 'cancelled', 'stopped']),
  itemsTotal: z.number().int(),
  itemsDone: z.number().int(),
  itemsFailed: z.number().int(),
  itemsUnknown: z.number().int(),
  itemsLeft: z.number().int(),
  requestsSent: z.number().int(),
  etaMs: z.number().nullable(),
  startedAt: z.number(),
  stopReason: errorView.optional(),
});

export const unknownOutcomeView = z.object({
  /** The journaled batch. */
  id: z.string(),
  draftId: z.string(),
  endpoint: z.string(),
  sentAt: z.number().nullable(),
  reason: z.string(),
  items: z.array(z.object({ target: z.string(), change: z.record(z.string(), z.unknown()) })),
  /** The resolutions that make sense for this endpoint, worded by main; `safe` ones never duplicate or lose a change. */
  choices: z.array(z.object({ id: resolutionChoice, label: z.string(), safe: z.boolean(), explanation: z.string() })),
  // Issue #10: what the service said since about these items (a later create refused as "already
  // listed" means this one most likely went through); show it beside the choices.
  evidence: z.array(z.object({ target: z.string(), at: z.number(), message: z.string() })).optional(),
});

export const activityEntry = z.object({
  id: z.number().int(),
  at: z.number(),
  endpoint: z.string(),
  itemCount: z.number().int(),
  outcome: z.string(),
  message: z.string(),
});

export const csvPreview = z.object({
  token: z.string(),
  kind: z.enum(['listings', 'buyOrders', 'draft']),
  validCount: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
});

export { resolutionChoice };

/** Issue #10: what "Check ledger" found (see src-shared/ledger-check.ts). */
export const ledgerCheck = ledgerCheckSchema;

export const tradeUrlInput = z.object({ account: accountId.optional(), tradeUrl });
