import { checkBaseUrl } from '../api/base-url.ts';
import { ApiError } from '../api/errors.ts';

/**
 * Why a service URL cannot be used (the same rules the client applies before
 * a byte is sent: https, or plain http on loopback for the sandbox), or null
 * when it can. Worded to follow "The service URL …".
 */
export function serviceUrlProblem(url: string): string | null {
  try {
    checkBaseUrl(url);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return error.issues[0]?.message ?? 'is not usable';
    throw error;
  }
}
