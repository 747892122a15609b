import type { IncomingMessage } from 'node:http';

/**
 * The two cookies: the session's, and the sign-in form's (the CSRF token of
 * the login and setup pages, before there is a session). Both HttpOnly,
 * SameSite=Strict, Path=/; Secure, with the `__Host-` prefix the browser
 * then enforces, whenever the browser came over HTTPS. Their names carry the
 * port, so two desks on one machine (cookies ignore ports) keep apart.
 */

export type CookieKind = 'session' | 'form';

export function cookieName(kind: CookieKind, port: number, secure: boolean): string {
  return `${secure ? '__Host-' : ''}desk_${kind}_${port}`;
}

/** The cookie's value from the request, under either name (with or without the prefix). */
export function readCookie(req: IncomingMessage, kind: CookieKind, port: number): string | undefined {
  const wanted = new Set([cookieName(kind, port, false), cookieName(kind, port, true)]);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (wanted.has(name)) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie value; `value` null clears the cookie. The session cookie lives as long as the browser runs. */
export function setCookie(kind: CookieKind, port: number, secure: boolean, value: string | null): string {
  const parts = [`${cookieName(kind, port, secure)}=${value ?? ''}`, 'HttpOnly', 'SameSite=Strict', 'Path=/'];
  if (secure) parts.push('Secure');
  if (value === null) parts.push('Max-Age=0');
  return parts.join('; ');
}
