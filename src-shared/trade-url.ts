import { URL_MAX_LENGTH } from './field-rules.ts';
import { groupThousands } from './money.ts';

/**
 * The trade offer URL rule, in plain code (the renderer checks it as the
 * trader types, main before it saves, the contract's zod schema through
 * `tradeUrl` in fields.ts). The interface document names the form
 * `<trade_offer_host>/tradeoffer/new/?partner=<partner_id>&token=<token>`
 * and leaves the host open; trades are made on the platform's trade offers,
 * so the host is the platform's own and anything else is refused: a URL on
 * another host would hand the account's trades to whoever runs it. The
 * partner is the account's 32-bit ID, so a URL can also be checked against
 * the account it is saved for.
 */

export const TRADE_URL_HOST = 'steamcommunity.com';
export const TRADE_URL_PATH = '/tradeoffer/new/';
/** The platform's trade tokens are 8 characters. */
export const TRADE_TOKEN_LENGTH = 8;
const TOKEN_CHARS = /^[A-Za-z0-9_-]*$/;
/** A 64-bit platform account ID is this base plus the 32-bit account number. */
const ID64_BASE = 76561197960265728n;
const UINT32_MAX = 4_294_967_295n;

/** The 32-bit account number (the URL's `partner`) of a 64-bit account ID, or null when `id64` is not one. */
export function partnerOf(id64: string): string | null {
  if (!/^\d{17,20}$/.test(id64)) return null;
  const partner = BigInt(id64) - ID64_BASE;
  return partner >= 0n && partner <= UINT32_MAX ? partner.toString() : null;
}

/** Where to show a value from the URL in a reason: short and one line. */
const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Why `value` is not a trade offer URL of the account `owner` (its 64-bit ID;
 * the partner is not checked when it is absent), or null when it is one. Each
 * reason names what to fix, as a sentence.
 */
export function tradeUrlProblem(value: string, owner?: string | null): string | null {
  const text = value.trim();
  if (text === '') return 'Paste the account’s trade offer URL.';
  if (text.length > URL_MAX_LENGTH) return `It is longer than ${groupThousands(URL_MAX_LENGTH)} characters: not a trade offer URL.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'This is not a URL.';
  }
  if (url.protocol !== 'https:') return `It must start with https:// (not ${shown(url.protocol)}//).`;
  if (url.username !== '' || url.password !== '') return 'It must not carry a user name or password.';
  if (url.hostname !== TRADE_URL_HOST) return `The host must be ${TRADE_URL_HOST}, not ${shown(url.hostname)}.`;
  if (url.port !== '') return `It must not name a port (:${url.port}).`;
  if (url.pathname !== TRADE_URL_PATH) return `The path must be ${TRADE_URL_PATH}, not ${shown(url.pathname)}.`;
  if (url.hash !== '') return 'It must not end with a #fragment.';
  const keys = [...url.searchParams.keys()];
  if (!keys.includes('partner')) return 'It needs partner=<the account’s number>.';
  if (!keys.includes('token')) return `It needs token=<${TRADE_TOKEN_LENGTH} characters>.`;
  const extra = keys.filter((k) => k !== 'partner' && k !== 'token');
  if (extra.length > 0) return `It must carry only partner and token, not ${shown(extra[0] ?? '')}.`;
  if (keys.length !== 2) return 'It must carry partner and token once each.';
  const partner = url.searchParams.get('partner') ?? '';
  if (!/^\d{1,10}$/.test(partner) || BigInt(partner) > UINT32_MAX) return 'partner must be the account’s number (digits only, at most 4294967295).';
  const token = url.searchParams.get('token') ?? '';
  if (!TOKEN_CHARS.test(token)) return 'token must be letters, digits, - or _.';
  if (token.length !== TRADE_TOKEN_LENGTH) return `token must be ${TRADE_TOKEN_LENGTH} characters (this one has ${token.length}).`;
  if (owner !== undefined && owner !== null) {
    const expected = partnerOf(owner);
    if (expected === null) return `The account ${shown(owner)} is not a platform account ID, so no trade URL can be checked for it.`;
    if (BigInt(partner).toString() !== expected) return `partner ${partner} is another account’s: this account’s is ${expected}.`;
  }
  return null;
}
