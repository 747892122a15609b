import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';
import { contentSecurityPolicy } from '../../core/shell/csp.ts';

/**
 * What every request must pass before anything reads it, after the daemons'
 * lessons (Syncthing and Transmission learnt DNS rebinding; qBittorrent's
 * WebUI checks Host, Origin and Referer):
 *
 * - its Host is a name the desk answers to: this machine's loopback names,
 *   the addresses it listens on, and the names the trader gave. A page of
 *   another site whose name was rebound to this address is refused;
 * - a request that changes anything, and every WebSocket upgrade, comes from
 *   the desk's own origin (a foreign Origin is cross-site request forgery or
 *   WebSocket hijacking);
 * - the client's address is the connection's, or, from a proxy the trader
 *   named, the last address the proxy added to X-Forwarded-For.
 */

export interface GuardOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly trustedProxies: readonly string[];
  readonly allowedHosts: readonly string[];
}

export interface RequestGuard {
  /** Whether the Host header names this desk. */
  hostAllowed(req: IncomingMessage): boolean;
  /** Whether the request's Origin is the desk's own (for requests that carry one; `required` when they must). */
  originAllowed(req: IncomingMessage, required: boolean): boolean;
  /** The client's address, through a trusted proxy. */
  clientAddress(req: IncomingMessage): string;
  /** Whether the browser reached the desk over HTTPS (here or at the trusted proxy): cookies are then Secure. */
  secure(req: IncomingMessage): boolean;
  /** The names the desk answers to, for the refusal's sentence. */
  readonly names: readonly string[];
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** `name` lowercased, brackets and a trailing dot off: how Host and Origin are compared. */
const bare = (name: string) => name.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

/** The host part of a Host header (`name`, `name:port`, `[v6]:port`), or null when malformed. */
export function hostName(header: string | undefined): string | null {
  if (!header || header.length > 300) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/@\s]+)(?::(\d{1,5}))?$/.exec(header.trim());
  return match?.[1] ? bare(match[1]) : null;
}

/** The addresses a wildcard listener answers on. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => bare(i.address)));
}

export function createRequestGuard(options: GuardOptions): RequestGuard {
  const names = new Set(['localhost', '127.0.0.1', '::1', ...options.allowedHosts.map(bare)]);
  if (WILDCARDS.has(options.host)) for (const address of interfaceAddresses()) names.add(address);
  else names.add(bare(options.host));
  const proxies = new Set(options.trustedProxies.map(bare));
  const peer = (req: IncomingMessage) => bare((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  const viaProxy = (req: IncomingMessage) => proxies.has(peer(req));
  const forwarded = (req: IncomingMessage, header: string) => {
    const value = req.headers[header];
    return (Array.isArray(value) ? value.join(',') : value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  };
  const secure = (req: IncomingMessage) => options.tls || (viaProxy(req) && forwarded(req, 'x-forwarded-proto').at(-1) === 'https');

  return {
    names: [...names],
    hostAllowed(req) {
      const name = hostName(req.headers.host);
      return name !== null && names.has(name);
    },
    originAllowed(req, required) {
      const origin = req.headers.origin;
      if (origin === undefined) return !required;
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      // The page's origin is the scheme it was reached by and the Host it asked for, exactly.
      const scheme = secure(req) ? 'https:' : 'http:';
      return url.protocol === scheme && url.host.toLowerCase() === (req.headers.host ?? '').toLowerCase() && hostName(url.host) !== null;
    },
    clientAddress(req) {
      const direct = peer(req);
      if (!proxies.has(direct)) return direct;
      // The proxy appends the address it saw; anything before it the client could have written.
      const last = forwarded(req, 'x-forwarded-for').at(-1);
      return last !== undefined && isIP(bare(last)) !== 0 ? bare(last) : direct;
    },
    secure,
  };
}

/**
 * The headers of every answer: the desktop window's CSP (no inline script,
 * `frame-ancestors 'none'`), no referrer, no sniffing, no framing, its own
 * browsing context group, and HSTS when the browser came over HTTPS.
 */
export function securityHeaders(secure: boolean): OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy(),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), usb=(), payment=()',
    ...(secure ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
