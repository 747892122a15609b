/**
 * What may be said of a webhook's address. Its path and query carry the
 * receiver's token (Discord's `/api/webhooks/<id>/<token>`): whoever holds
 * the URL can post to the trader's channel. So the screen is shown the host
 * and the last four characters (as the API key's), a log line the scheme,
 * host and a masked path, and any text that came back from a receiver or a
 * library is cleaned of the URL and its parts before it is shown or logged.
 */

/** The host (with a port other than the scheme's) and the URL's last four characters. */
export function shownAddress(url: string): { host: string; last4: string } {
  const parsed = new URL(url);
  return { host: parsed.host, last4: url.slice(-4) };
}

/** For a log line or the activity log: `https://discord.com/…abcd`. */
export function loggedAddress(url: string): string {
  const { host, last4 } = shownAddress(url);
  return `${new URL(url).protocol}//${host}/…${last4}`;
}

/** Parts of a secret shorter than this are not worth hiding (a path's `api`, `webhooks`) and would blank innocent words. */
const MIN_HIDDEN = 8;

/**
 * `text` with every secret taken out: the URL whole, its path and query, each
 * path segment or query value long enough to be a token, and `others` (a
 * signing secret), in raw and percent-encoded spellings.
 */
export function withoutSecrets(text: string, url: string, others: readonly string[] = []): string {
  const parsed = new URL(url);
  const parts = [url, `${parsed.pathname}${parsed.search}`, ...parsed.pathname.split('/'), ...[...parsed.searchParams.values()], ...others];
  const hidden = [...new Set(parts.flatMap((p) => [p, encodeURIComponent(p), decodeSafely(p)]))]
    .filter((p) => p.length >= MIN_HIDDEN)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of hidden) out = out.split(secret).join('••••');
  return out;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
