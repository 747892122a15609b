import { ApiError } from './errors.ts';

/**
 * The service accepts HTTPS only, and the key travels in a header: a plain
 * HTTP base URL would hand it to anyone on the path. Plain HTTP is allowed for
 * loopback alone, where the built-in sandbox listens.
 */

/** A checked base URL: the origin to connect to and the path prefix to put before endpoint paths. */
export interface CheckedBaseUrl {
  readonly origin: string;
  /** Path prefix without a trailing slash ('' for the root). */
  readonly pathPrefix: string;
}

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
 * Checks a base URL before any request is made. Throws ApiError 'invalid'
 * (the URL itself is not echoed: it might hold credentials).
 */
export function checkBaseUrl(baseUrl: string): CheckedBaseUrl {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw refuse('is not a valid URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('must not carry a user name or password');
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw refuse('must use https:// (plain http:// is allowed for 127.0.0.0/8, ::1 and localhost only)');
    }
  } else if (url.protocol !== 'https:') {
    throw refuse('must use https://');
  }
  if (url.search !== '' || url.hash !== '') {
    throw refuse('must not carry a query string or fragment');
  }
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

function refuse(reason: string): ApiError {
  const message = `The service base URL ${reason}`;
  return new ApiError('invalid', message, { issues: [{ field: 'baseUrl', message: reason }] });
}
