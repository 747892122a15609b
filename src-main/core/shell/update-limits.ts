/**
 * How much an update check may take: a feed file (latest*.yml, a signature)
 * is a few kB, so anything near a mebibyte is not one, and reading it whole
 * would hold it all in memory; and a feed that answers a byte at a time never
 * trips a socket's idle timeout, so the check as a whole has a deadline.
 */

/** The most a file read whole from the feed may hold. */
export const FEED_FILE_MAX_BYTES = 1024 * 1024;

/** The longest a whole check (every request it makes, redirects included) may take. */
export const CHECK_DEADLINE_MS = 60_000;

/** Why a check stopped early; its message completes "The last update check failed: …". */
export class UpdateCheckStopped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateCheckStopped';
  }
}

export function feedFileTooLarge(url: string, maxBytes: number = FEED_FILE_MAX_BYTES): UpdateCheckStopped {
  return new UpdateCheckStopped(`the update feed sent more than ${sizeWords(maxBytes)} for ${url}, where a feed file is a few kB, so the app stopped reading it.`);
}

export function checkTimedOut(deadlineMs: number): UpdateCheckStopped {
  return new UpdateCheckStopped(`the update feed did not answer in full within ${deadlineMs < 1000 ? `${deadlineMs} ms` : `${Math.round(deadlineMs / 1000)} s`}, so the check was stopped.`);
}

function sizeWords(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
