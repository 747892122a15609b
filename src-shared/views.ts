import { z } from 'zod';
import { accountId, tradeUrl } from './fields.ts';
import { errorView as sharedErrorView } from './errors.ts';
import { itemView, stamp } from './ledger.ts';
import { buyOrderTrade, buyOrderTradeItem, marketTrade, marketTradeItem } from './trades.ts';
import { keyStatusSchema, settingsSchema } from './settings.ts';
import { keyTestResult } from './key-test.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The view models of the live state that cross the bridge: what the renderer
 * is shown, each with the `stamp` of main's state it was read from (a screen
 * keeps the newest it was told and drops an older reply). Field rules come
 * from the API vocabulary, so a value the renderer sends is checked by the
 * same rule the client applies. Nothing here can carry the API key: the
 * renderer only learns whether one is set and its last four characters.
 */

/** An error as the renderer sees it: any kind of the shared closed set. */
export const errorView = sharedErrorView;

export const mode = z.enum(['sandbox', 'live']);

export const keyStatus = lazySchema(() => keyStatusSchema.extend({
  stamp,
  // What the last "Test key" found, until the key changes (null: not tested since).
  test: keyTestResult.nullable().optional(),
}));

export const appStatus = z.object({
  stamp,
  mode,
  online: z.boolean(),
  version: z.string(),
  profile: z.string(),
  /** Where requests go: the live service or the embedded sandbox's loopback URL. */
  serviceUrl: z.string(),
  /** Why the service cannot be used as configured (an unusable saved URL, a switch that failed); null when it can. */
  serviceProblem: z.string().nullable(),
  /** Whether the service answered the desk's last request: unknown until one is sent; when not, why and since when. */
  reach: z.object({
    state: z.enum(['unknown', 'reachable', 'unreachable']),
    why: z.string().nullable(),
    since: z.number().nullable(),
  }),
  /**
   * The desk's store (its worker thread) stopped and is being started again,
   * or stopped too often and was not: absent while it runs. Nothing stored is
   * lost; calls made meanwhile are refused as busy.
   */
  store: z.enum(['restarting', 'failed']).optional(),
});
export type DeskStatusView = Omit<z.infer<typeof appStatus>, 'stamp'>;

export const settings = settingsSchema.extend({ stamp });
export const settingsPatch = settingsSchema.partial();

export const heartbeatState = z.object({
  stamp,
  status: z.enum(['active', 'expiring', 'lapsed', 'off']),
  refreshAt: z.number().nullable(),
  lastBeatAt: z.number().nullable(),
  nextBeatAt: z.number().nullable(),
  accounts: z.array(z.string()),
  lastError: errorView.nullable(),
  // The service's clock minus the desk's (ms), from its Date headers; null before one was
  // seen. Show a warning when it is more than a minute either way.
  clockOffsetMs: z.number().nullable().optional(),
});

export const schedulerState = lazySchema(() => z.object({
  stamp,
  blocked: z.enum(['auth', 'forbidden']).nullable(),
  /** Requests sent in the last minute against the global limit. */
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  /** When a 429 made us wait: until when (ms epoch). */
  pausedUntil: z.number().nullable(),
}));

/**
 * How a read the desk cannot do without (the accounts, the
 * balance) is going: "reading accounts, retrying in 40 s" and why.
 */
export const readState = lazySchema(() => z.object({
  phase: z.enum(['idle', 'reading', 'retrying', 'done', 'failed']),
  nextAttemptAt: z.number().nullable(),
  lastError: errorView.nullable(),
  failures: z.number().int().nonnegative(),
  readAt: z.number().nullable(),
}));

export const balanceReading = lazySchema(() => z.object({
  balance: z.number().int(),
  pending_balance: z.number().int(),
  readAt: z.number(),
}));
/** The last balance read; null before the first. */
export const balanceView = lazySchema(() => z.object({
  stamp,
  reading: balanceReading.nullable(),
  // How reading the balance goes (retried with backoff until it succeeds), for "not read: why, next try".
  read: readState.optional(),
}));

const tradeExtras = {
  needsAction: z.boolean(),
  partnerAgeDays: z.number(),
  youngPartner: z.boolean(),
};
/** Each trade item with the item named from its SKU (quality colour, effect, killstreak…), when the schema knows it. */
const namedItem = { item: itemView.nullable().optional() };
export const watchedTrade = lazySchema(() => z.discriminatedUnion('trade_type', [
  marketTrade.extend({ ...tradeExtras, items: z.array(marketTradeItem.extend(namedItem)) }),
  buyOrderTrade.extend({ ...tradeExtras, items: z.array(buyOrderTradeItem.extend(namedItem)) }),
]));
/** Pending trades are few: they cross whole. */
export const tradesView = lazySchema(() => z.object({
  stamp,
  trades: z.array(watchedTrade),
  /** When the trade lists last answered (ms epoch, main's clock); the service allows one read a minute. */
  checkedAt: z.number().nullable().optional(),
}));

export const accountView = lazySchema(() => z.object({
  id64: z.string(),
  role: z.enum(['main', 'linked']),
  tradeUrl: z.string().nullable(),
  /** Whether the heartbeat covers this account (always true for main). */
  automated: z.boolean(),
}));
export const accountsView = lazySchema(() => z.object({
  stamp,
  main: accountView.nullable(),
  linked: z.array(accountView),
  readAt: z.number().nullable(),
  // The state of reading the accounts list (retried with backoff until it succeeds).
  read: readState.optional(),
}));

export const activityEntry = z.object({
  id: z.number().int(),
  at: z.number(),
  endpoint: z.string(),
  itemCount: z.number().int(),
  outcome: z.string(),
  message: z.string(),
});

/**
 * One entry the activity log gained, or whose outcome it learnt (the same
 * `id` again: a screen replaces what it shows of it), at the activity stamp.
 */
export const activityAdded = activityEntry.extend({ stamp });

export const tradeUrlInput = z.object({ account: accountId.optional(), tradeUrl });
