import type { DeskErrorKind, ErrorView } from '../../../src-shared/errors.ts';

/**
 * The one place that turns an error from the main process into words a trader
 * acts on. Every screen shows errors through this, so the same failure always
 * reads the same way and never shows a stack, a status code alone, or a key.
 */
export function describeError(error: ErrorView): string {
  return WORDS[error.kind](error);
}

/**
 * One wording per kind of the shared closed set: a kind added there without
 * words here does not compile.
 */
const WORDS: Record<DeskErrorKind, (error: ErrorView) => string> = {
  // Issue #13: without a status the request never reached the service (no key is set, or it could not be read): not a rejection.
  auth: (error) => (error.status === undefined ? sentence(error.message, 'No API key is set') : 'The API key was rejected — replace it in Settings.'),
  forbidden: () => 'The service refused this for your account (not permitted). Check the account’s standing on the marketplace.',
  rate_limited: (error) => `The service asked us to wait ${waitSeconds(error.retryAfterMs)} s; nothing is lost.`,
  network: () => 'The service cannot be reached (offline?). Nothing is lost; work resumes when the connection is back.',
  invalid: (error) => invalidText(error),
  rejected: (error) => `The service refused this${where(error)}: ${error.message}. Sending it again will not help; change it first.`,
  server: (error) => `The service had a problem${where(error)}${error.status === undefined ? '' : ` (status ${error.status})`}. It is retried automatically.`,
  bad_response: (error) => `The service answered${where(error)} with something unexpected: ${error.message}.`,
  unknown_outcome: () => 'A request was sent but its answer was lost, so it may or may not have taken effect. Resolve it in Drafts before sending it again.',
  // Main words these for the trader (which draft, what is in flight, how to unlock): shown as they are.
  not_found: (error) => sentence(error.message, 'That is no longer there; it may have been removed meanwhile'),
  conflict: (error) => sentence(error.message, 'That cannot be done right now'),
  busy: () => 'The desk’s data file is in use by another task or program; try again in a moment. Nothing was lost.',
  keychain_unavailable: (error) => sentence(error.message, 'The system keychain is not available, so the API key cannot be stored safely'),
  bridge: () => 'The desk lost contact with its background process. Restart the app if this persists.',
  internal: () => 'Something went wrong inside the app; the details are in its log.',
};

/** `text` as one sentence ending in a single full stop; `fallback` when main sent no words. */
function sentence(text: string, fallback: string): string {
  const words = text.trim() === '' ? fallback : text.trim();
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

/** Seconds to wait, rounded up so "0 s" is never shown for a real wait. */
function waitSeconds(ms: number | undefined): number {
  return ms === undefined ? 60 : Math.max(1, Math.ceil(ms / 1000));
}

function where(error: ErrorView): string {
  return error.endpoint === undefined ? '' : ` (${error.endpoint})`;
}

/** Names the field (and the item, for batches) so the trader knows what to fix. */
function invalidText(error: ErrorView): string {
  const issues = error.issues ?? [];
  if (issues.length === 0) return `Not accepted: ${sentence(error.message, 'the request was not valid')}`;
  const parts = issues.slice(0, 3).map((issue) => {
    const field = fieldLabel(issue.field);
    const item = issue.item === undefined ? '' : `item ${issue.item + 1}: `;
    return `${item}${field} ${issue.message}`;
  });
  // A refusal lists at most a few issues; `moreIssues` counts the ones main left out.
  const hidden = Math.max(0, issues.length - 3) + (error.moreIssues ?? 0);
  const more = hidden > 0 ? ` (and ${hidden} more)` : '';
  return `Not accepted — ${parts.join('; ')}${more}.`;
}

const FIELD_LABELS: Record<string, string> = {
  price: 'price',
  user_note: 'note',
  asset_id: 'asset ID',
  listing_id: 'listing ID',
  sku: 'SKU',
  quantity: 'quantity',
  trade_url: 'trade URL',
  tradeUrl: 'trade URL',
  key: 'API key',
  promoted: 'promoted',
  active: 'active',
  game: 'game',
  account: 'account',
  serviceUrl: 'service URL',
  heartbeatIntervalMinutes: 'heartbeat interval',
  tradePollSeconds: 'trade poll interval',
  youngAccountDays: 'young-account age',
};

/** `items.3.price` → `price`; unknown names are shown as they are. */
export function fieldLabel(path: string): string {
  const last = path.split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? path;
  return FIELD_LABELS[last] ?? last;
}
