import type { DeskErrorKind, ErrorView } from '../../../src-shared/errors.ts';
import { MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_WORDS } from '../../../src-shared/rate-wait.ts';
import { endpointAsk } from './endpoint-words.ts';
import { jsonIn, splitTechnical, type Worded } from './technical-text.ts';
import { plural } from './words.ts';

export type { Worded } from './technical-text.ts';

/**
 * The one place that turns an error from the main process into words a trader
 * acts on. Every screen shows errors through this, so the same failure always
 * reads the same way: a sentence about the trader's situation, and the
 * technical detail (endpoint, status, code, what the service answered) apart,
 * for the "Details" disclosure (components/ErrorDetails.vue). Never a stack,
 * a status code alone, a JSON body or a key in the sentence.
 */
export function wordError(error: ErrorView): Worded {
  const split = error.kind === 'internal' ? { text: '', details: [] } : splitTechnical(error.message);
  return { text: WORDS[error.kind](error, split.text), details: detailsOf(error, split.details) };
}

/** The sentence alone, for places without room for details (a tooltip, a banner line). */
export function describeError(error: ErrorView): string {
  return wordError(error).text;
}

/**
 * One wording per kind of the shared closed set: a kind added there without
 * words here does not compile. `words` is the error's message with its
 * technical fragments taken out (they go to the details).
 */
const WORDS: Record<DeskErrorKind, (error: ErrorView, words: string) => string> = {
  // Without a status the request never reached the service (no key is set, or it could not be read): not a rejection.
  auth: (error, words) => (error.status === undefined ? sentence(words, 'No API key is set') : 'The API key was rejected — replace it in Settings.'),
  forbidden: () => 'The service refused this for your account (not permitted). Check the account’s standing on the marketplace.',
  rate_limited: (error) =>
    (error.retryAfterMs ?? 0) >= MAX_RETRY_AFTER_MS
      ? `The service asked the desk to wait ${MAX_RETRY_AFTER_WORDS} or more; the desk waits at most ${MAX_RETRY_AFTER_WORDS}, then tries again. Nothing is lost.`
      : `The service asked the desk to wait ${waitSeconds(error.retryAfterMs)} s; nothing is lost.`,
  network: () => 'The service cannot be reached (offline?). Nothing is lost; work resumes when the connection is back.',
  invalid: (error, words) => invalidText(error, words),
  rejected: (error, words) => {
    const said = serviceReason(error.message);
    if (said === null && !isClientBoilerplate(words)) return sentence(words, 'The service refused this');
    return `The service refused ${toDo(error.endpoint, 'this')}${said === null ? '' : ` — ${said}`}. Sending it again will not help; change it first.`;
  },
  server: (error) => `The service had a problem on its side ${whenAsked(error.endpoint)}. It is retried automatically.`,
  bad_response: (error) => `The service’s answer ${whenAsked(error.endpoint)} could not be read. Nothing was changed on the desk.`,
  unknown_outcome: () => 'A request was sent but its answer was lost, so it may or may not have taken effect. Resolve it in Drafts before sending it again.',
  // Main words these for the trader (which draft, what is in flight, how to unlock): shown as they are.
  not_found: (_e, words) => sentence(words, 'That is no longer there; it may have been removed meanwhile'),
  conflict: (_e, words) => sentence(words, 'That cannot be done right now'),
  busy: () => 'The desk’s data file is in use by another task or program; try again in a moment. Nothing was lost.',
  disk_full: () => 'The disk is full: free some space. Nothing saved was lost, and the desk carries on once there is room.',
  io: () => 'The disk could not be written (an I/O error). Nothing saved was lost; check the disk, and the desk carries on once it can write again.',
  keychain_unavailable: (_e, words) => sentence(words, 'The system keychain is not available, so the API key cannot be stored safely'),
  bridge: () => 'The desk lost contact with its background process. Restart the app if this persists.',
  internal: () => 'Something went wrong inside the app; the details are in its log.',
};

/** The technical lines of the Details disclosure; an internal failure's message stays in the log. */
function detailsOf(error: ErrorView, fromMessage: readonly string[]): string[] {
  if (error.kind === 'internal') return [];
  const lines: string[] = [];
  if (error.endpoint !== undefined) lines.push(`Endpoint: ${error.endpoint}`);
  if (error.status !== undefined) lines.push(`HTTP status: ${error.status}`);
  if (error.retryAfterMs !== undefined) lines.push(`Retry after: ${error.retryAfterMs} ms`);
  for (const line of fromMessage) if (!lines.includes(line)) lines.push(line);
  // The whole message, as main sent it, for a bug report; only when it holds more than the sentence shows.
  const message = error.message.trim();
  if (message !== '' && fromMessage.length > 0) lines.push(`Message: ${message}`);
  return lines;
}

/** `text` as one sentence: a capital first and a single full stop last; `fallback` when there are no words. */
export function sentence(text: string, fallback: string, capital = true): string {
  const trimmed = text.trim().replace(/[\s:;,]+$/, '');
  const words = trimmed === '' ? fallback : trimmed;
  const first = capital ? words.charAt(0).toUpperCase() + words.slice(1) : words;
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** Seconds to wait, rounded up so "0 s" is never shown for a real wait. */
function waitSeconds(ms: number | undefined): number {
  return ms === undefined ? 60 : Math.max(1, Math.ceil(ms / 1000));
}

/** "to create these listings" for a known endpoint; `otherwise` for none (or one the desk does not know). */
function toDo(endpoint: string | undefined, otherwise: string): string {
  const ask = endpointAsk(endpoint);
  return ask === null ? otherwise : `to ${ask}`;
}

/** "when asked to read the balance", or "with a request" for an endpoint the desk does not name. */
function whenAsked(endpoint: string | undefined): string {
  const ask = endpointAsk(endpoint);
  return ask === null ? 'with a request' : `when asked to ${ask}`;
}

/** The client's own framing of a refusal, which says nothing the sentence does not. */
function isClientBoilerplate(words: string): boolean {
  return /^(?:the service refused the request|the service answered success: false|x)?$/i.test(words.trim());
}

/**
 * The reason the service gave, in words: the `error` (or `message`) of its
 * JSON answer, with a field path like `items.3.asset_id` read as "item 4:
 * asset ID". Null when it gave none the trader could read.
 */
export function serviceReason(message: string, withItem = true): string | null {
  const at = jsonIn(message);
  const json = at === null ? undefined : message.slice(at.start, at.end);
  let said: unknown;
  try {
    said = json === undefined ? undefined : (JSON.parse(json) as unknown);
  } catch {
    said = undefined;
  }
  const text = typeof said === 'object' && said !== null
    ? [(said as Record<string, unknown>).error, (said as Record<string, unknown>).message].find((v) => typeof v === 'string')
    : undefined;
  if (typeof text !== 'string' || text.trim() === '') return null;
  const path = /^([\w.[\]]+):\s*(.+)$/s.exec(text.trim());
  if (path === null) return `“${splitTechnical(text).text}”`;
  const item = /(?:^|\.)(\d+)(?:\.|$)|\[(\d+)\]/.exec(path[1] ?? '');
  const index = item === null ? null : Number(item[1] ?? item[2]);
  const where = index === null || !withItem ? '' : `item ${index + 1}, `;
  return `${where}${fieldLabel(path[1] ?? '')}: ${splitTechnical(path[2] ?? '').text}`;
}

/** Names the field (and the item, for batches) so the trader knows what to fix. */
function invalidText(error: ErrorView, words: string): string {
  const issues = error.issues ?? [];
  if (issues.length === 0) return `Not accepted: ${sentence(words, 'the request was not valid', false)}`;
  const parts = issues.slice(0, 3).map((issue) => {
    const field = fieldLabel(issue.field);
    const item = issue.item === undefined ? '' : `item ${issue.item + 1}: `;
    return `${item}${field} ${splitTechnical(issue.message).text}`;
  });
  // A refusal lists at most a few issues; `moreIssues` counts the ones main left out.
  const hidden = Math.max(0, issues.length - 3) + (error.moreIssues ?? 0);
  const more = hidden > 0 ? ` (and ${plural(hidden, 'more problem')})` : '';
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
  multiaccount_proxy: 'account',
  serviceUrl: 'service URL',
  heartbeatIntervalMinutes: 'heartbeat interval',
  tradePollSeconds: 'trade poll interval',
  youngAccountDays: 'young-account age',
};

/** `items.3.price` → `price`; unknown names are shown with their underscores as spaces. */
export function fieldLabel(path: string): string {
  const last = path.replace(/\[\d+\]/g, '').split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? path;
  return FIELD_LABELS[last] ?? last.replaceAll('_', ' ');
}

/**
 * A reason main wrote as plain text (why an apply stopped, why a row is in
 * doubt, what an outcome's answer was): its words as a sentence, its
 * technical fragments as details. `fallback` when nothing but those is left.
 */
export function wordReason(text: string, fallback: string): Worded {
  const split = splitTechnical(text);
  // The service's own reason, when its answer gave one, is worth the trader's reading.
  const said = serviceReason(text, false);
  const words = sentence(split.text, fallback);
  return {
    text: said === null ? words : `${words} The service said: ${said}.`,
    details: split.details.length > 0 ? [...split.details, `Message: ${text.trim()}`] : [],
  };
}

/**
 * What the service said about one item, in words: its refusal's reason when
 * it gave one (the item's place in that other request does not matter here),
 * else main's text as a sentence.
 */
export function wordServiceSaid(message: string): Worded {
  const said = serviceReason(message, false);
  const worded = wordReason(message, 'The service answered about this item.');
  return said === null ? worded : { text: `Refused: ${said}.`, details: worded.details };
}
