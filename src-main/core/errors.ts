import type { DeskErrorKind } from '../../src-shared/errors.ts';
import { printable } from './safe-text.ts';

/**
 * A refusal the trader can act on, with a kind of the shared closed set and
 * a message written for the screen; the bridge passes both on as they are.
 * Anything thrown that is not kinded is a bug and reaches the screen only as
 * `internal`. The kinds of the desk itself (src-shared/errors.ts says what
 * each means):
 * - `not_found`: an ID the trader named is not there (a draft, an unknown
 *   outcome, an apply job, an import preview).
 * - `conflict`: the thing is in a state that does not allow this now
 *   (changes in flight, a job that has ended, a switch that failed).
 * - `busy`: the profile's data file is held by another task or program.
 * - `invalid`: well formed, but not something the desk offers here.
 */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  readonly kind: DeskErrorKind;

  constructor(kind: DeskErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export const notFound = (message: string): DomainError => new DomainError('not_found', message);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
export const refused = (message: string): DomainError => new DomainError('invalid', message);

/**
 * An ID or name the trader sent, fit to quote in a message: whatever arrived
 * (10 MB, control characters), the message stays short and printable.
 */
export const quoted = (value: string): string => `“${printable(value, 40)}”`;

/** SQLite's primary result code of a node:sqlite error (the low byte of its `errcode`), or null for anything else. */
function sqlitePrimaryCode(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { errcode?: unknown }).errcode;
  return typeof code === 'number' ? code & 0xff : null;
}

/**
 * SQLite's answer when another connection holds the file: SQLITE_BUSY (5) or
 * SQLITE_LOCKED (6) in the low byte of node:sqlite's `errcode` ("database is
 * locked" after the busy timeout). Returns the `busy` error to throw instead,
 * or null for any other error.
 */
export function storeBusy(error: unknown): DomainError | null {
  const primary = sqlitePrimaryCode(error);
  if (primary !== 5 && primary !== 6) return null;
  return new DomainError('busy', 'The desk’s data file is in use by another task or program, so nothing was changed');
}

/**
 * SQLite's answer when the disk cannot take a write: SQLITE_FULL (13, "database
 * or disk is full") is `disk_full`, SQLITE_IOERR (10, with any extended code) is
 * `io`. The write was rolled back whole, so the message can promise that
 * nothing saved before is lost. An error already of these kinds is returned
 * as it is; null for any other error.
 */
export function storeFailure(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error.kind === 'disk_full' || error.kind === 'io' ? error : null;
  const primary = sqlitePrimaryCode(error);
  let failure: DomainError | null = null;
  if (primary === 13) {
    failure = new DomainError('disk_full', 'The disk is full, so this was not saved. Nothing saved before is lost: free some space and the desk carries on');
  } else if (primary === 10) {
    failure = new DomainError('io', 'The disk could not be written (an I/O error), so this was not saved. Nothing saved before is lost: check the disk and the desk carries on');
  }
  if (failure) failure.cause = error;
  return failure;
}
