/**
 * Which links may leave the app for the system browser. The renderer shows
 * data from the service and from trade partners (item names, notes), so a
 * link it asks to open is untrusted input: it is parsed, never prefix-matched,
 * and only three kinds pass: a trade offer, a trade partner's profile on the
 * sites traders check a partner on, and the service's own pages. Everything
 * else is dropped silently by the caller.
 */

/** The trade-offer site: a trade the trader must accept or send is opened there. */
export const TRADE_OFFER_HOST = 'steamcommunity.com';

/**
 * Where a trade partner is checked before a trade is accepted: the account's
 * age and trade holds on its Steam profile, its trading history on
 * backpack.tf, its reputation (a scammer's mark) on SteamRep. Each shows a
 * profile at `/profiles/<SteamID64>`.
 */
export const PARTNER_SITES = {
  steam: 'steamcommunity.com',
  backpack: 'backpack.tf',
  steamrep: 'steamrep.com',
} as const;
export type PartnerSite = keyof typeof PARTNER_SITES;

/** A partner's profile page on one of the sites (`id64`: the SteamID64, digits only). */
export const partnerPageUrl = (site: PartnerSite, id64: string): string => `https://${PARTNER_SITES[site]}/profiles/${id64}`;

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
  if (isTradeOfferPage(url) || isPartnerPage(url) || isServicePage(url, policy)) return url.href;
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

/** `https://<partner site>/profiles/<SteamID64>`: one of the hosts exactly, the default port, 17 digits, no query or fragment. */
function isPartnerPage(url: URL): boolean {
  const hosts: readonly string[] = Object.values(PARTNER_SITES);
  return hosts.includes(url.hostname) && url.port === '' && /^\/profiles\/\d{17}\/?$/.test(url.pathname) && url.search === '' && url.hash === '';
}

function isServicePage(url: URL, policy: ExternalLinkPolicy): boolean {
  return policy.serviceOrigins.some((origin) => {
    const allowed = parseHttps(origin);
    return allowed !== null && allowed.origin === url.origin;
  });
}
