import { serviceUrlProblem } from '../../../src-shared/fields.ts';
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

export { isLoopbackHost } from '../../../src-shared/fields.ts';

/**
 * Checks a base URL before any request is made. Throws ApiError 'invalid'
 * (the URL itself is not echoed: it might hold credentials).
 */
export function checkBaseUrl(baseUrl: string): CheckedBaseUrl {
  const problem = serviceUrlProblem(baseUrl);
  if (problem) throw refuse(problem);
  const url = new URL(baseUrl);
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

function refuse(reason: string): ApiError {
  const message = `The service base URL ${reason}`;
  return new ApiError('invalid', message, { issues: [{ field: 'baseUrl', message: reason }] });
}
