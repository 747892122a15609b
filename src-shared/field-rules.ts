/**
 * The field rules the renderer checks as the trader types, in plain code
 * (no zod): the renderer bundle loads on every window open, and the schema
 * library would be a quarter of it. fields.ts builds the zod schemas that
 * main, the drafts, the client and the sandbox parse with from these same
 * definitions, so a form can never accept what main refuses.
 */

/** The service's limit on `user_note`, in characters. */
export const NOTE_MAX_LENGTH = 180;

/** The documented game's app ID: what a row without one is for. */
export const DEFAULT_GAME = '440';

/**
 * Characters that make text display differently from what it holds: NUL
 * (cuts the text short in C code and databases) and the bidirectional
 * controls (they reorder what follows, so a note or SKU can read as another,
 * the "Trojan Source" trick). A regex character class, shared with the
 * main process's log and message cleaning.
 */
export const HIDDEN_CONTROL_CHARS = '\\u0000\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const HIDDEN_CONTROL = new RegExp(`[${HIDDEN_CONTROL_CHARS}]`, 'u');

/** The first hidden control character of `text`, named for a refusal; null when there is none. */
export function hiddenControlIn(text: string): string | null {
  const found = HIDDEN_CONTROL.exec(text);
  if (!found) return null;
  const code = found[0].codePointAt(0) ?? 0;
  return code === 0 ? 'a NUL character' : `a text direction control (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * Bounds on the text the service sends back, so a hostile or broken answer
 * (a 10 MB item name) is refused at the door instead of reaching the store,
 * the bridge, the screen and the notifications. Each is far above anything
 * the game or the platform produces: TF2 item names with quality, effect,
 * killstreak, wear and a custom name stay under 150 characters; Steam display
 * names under 32; IDs, statuses and codes under 30.
 */
export const ITEM_NAME_MAX_LENGTH = 300;
export const DISPLAY_NAME_MAX_LENGTH = 100;
export const SERVICE_WORD_MAX_LENGTH = 64;

/** The longest SKU accepted. */
export const SKU_MAX_LENGTH = 200;

/** Non-empty parts joined by semicolons, at least two (see `sku` in fields.ts). */
export const SKU_SHAPE = /^[^;\s](?:[^;]*[^;\s])?(?:;[^;\s](?:[^;]*[^;\s])?)+$/;

/** Whether `text` is a SKU the drafts accept: what `sku.safeParse(text).success` says, without zod. */
export function isSku(text: string): boolean {
  return text.length <= SKU_MAX_LENGTH && SKU_SHAPE.test(text) && hiddenControlIn(text) === null;
}

/** Longer than any URL the app uses: refused before it is parsed as one (parsing 10 MB takes a while). */
export const URL_MAX_LENGTH = 2_000;

/** Whether `hostname` (as `URL.hostname` spells it) is a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}

/**
 * Why `baseUrl` cannot be the service's address, or null when it can. The
 * service accepts HTTPS only and the key travels in a header: plain HTTP
 * would hand it to anyone on the path, so it is allowed for loopback alone,
 * where the built-in sandbox listens. The reasons never echo the URL (it
 * might hold credentials).
 */
export function serviceUrlProblem(baseUrl: string): string | null {
  return httpsUrlProblem(baseUrl, false);
}

/**
 * Why `url` cannot be an alert webhook's address, or null when it can: the
 * service URL's rule (HTTPS, plain HTTP for loopback alone: a local relay,
 * the tests), except that a query is allowed (Discord's `?thread_id=`). The
 * URL carries the receiver's token, so the reasons never echo it.
 */
export function webhookUrlProblem(url: string): string | null {
  return httpsUrlProblem(url, true);
}

function httpsUrlProblem(value: string, queryAllowed: boolean): string | null {
  if (value.length > URL_MAX_LENGTH) return `is longer than ${URL_MAX_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return 'must use https:// (plain http:// is allowed for 127.0.0.0/8, ::1 and localhost only)';
  } else if (url.protocol !== 'https:') {
    return 'must use https://';
  }
  if (!queryAllowed && (url.search !== '' || url.hash !== '')) return 'must not carry a query string or fragment';
  if (url.hash !== '') return 'must not carry a fragment';
  return null;
}
