/**
 * Which links may leave the app for the system browser. The renderer shows
 * data from the service and from trade partners (item names, notes), so a
 * link it asks to open is untrusted input: it is parsed, never prefix-matched,
 * and only two kinds pass. Everything else is dropped silently by the caller.
 */

/** The trade-offer site: a trade the trader must accept or send is opened there. */
export const TRADE_OFFER_HOST = 'steamcommunity.com';

export interface ExternalLinkPolicy {
  /**
   * Origins of the service's own web pages (e.g. `https://market.example`).
   * Only HTTPS origins count; anything else in this list is ignored, so a
   * loopback sandbox URL can never make plain HTTP links openable.
   */
  readonly serviceOrigins: readonly string[];
}

/**
 * The URL to hand to the browser when `raw` is allowed, else null. The
 * returned text is the parser's serialisation, so what is opened is exactly
 * what was checked.
 */
export function allowedExternalUrl(raw: string, policy: ExternalLinkPolicy): string | null {
  const url = parseHttps(raw);
  if (!url) return null;
  if (isTradeOfferPage(url) || isServicePage(url, policy)) return url.href;
  return null;
}

function parseHttps(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  // Credentials in a URL are a classic way to disguise the real host.
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return null;
  return url;
}

/**
 * `https://steamcommunity.com/tradeoffer/<id>/` or `/tradeoffer/new/?…`:
 * the host exactly (no look-alike subdomain), the default port, and a path
 * under /tradeoffer/ after the parser has resolved dot segments.
 */
function isTradeOfferPage(url: URL): boolean {
  return url.hostname === TRADE_OFFER_HOST && url.port === '' && /^\/tradeoffer\/[A-Za-z0-9]+\/?$/.test(url.pathname);
}

function isServicePage(url: URL, policy: ExternalLinkPolicy): boolean {
  return policy.serviceOrigins.some((origin) => {
    const allowed = parseHttps(origin);
    return allowed !== null && allowed.origin === url.origin;
  });
}
