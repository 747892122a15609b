import { printable } from './safe-text.ts';

/**
 * Failures of the desk itself that are the trader's to act on, not bugs:
 * the router passes their kind and message to the screen (src-shared/errors.ts
 * says what each kind means; the renderer words them).
 * - `not_found`: an ID the trader named is not there (a draft, an unknown
 *   outcome, an apply job, an import preview).
 * - `conflict`: the thing is in a state that does not allow this now
 *   (changes in flight, a job that has ended).
 * - `busy`: the profile's data file is held by another task or program.
 * - `invalid`: the request is well formed but asks for something the desk
 *   does not offer here (a resolution that does not apply to this outcome).
 */
export type DeskErrorKind = 'not_found' | 'conflict' | 'busy' | 'invalid';

export class DeskError extends Error {
  override readonly name: string = 'DeskError';
  readonly kind: DeskErrorKind;

  constructor(kind: DeskErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export const notFound = (message: string): DeskError => new DeskError('not_found', message);
export const conflict = (message: string): DeskError => new DeskError('conflict', message);
export const refused = (message: string): DeskError => new DeskError('invalid', message);

/**
 * An ID or name the trader sent, fit to quote in a message: whatever arrived
 * (10 MB, control characters), the message stays short and printable.
 */
export const quoted = (value: string): string => `“${printable(value, 40)}”`;

/**
 * SQLite's answer when another connection holds the file: SQLITE_BUSY (5) or
 * SQLITE_LOCKED (6) in the low byte of node:sqlite's `errcode` ("database is
 * locked" after the busy timeout). Returns the `busy` error to throw instead,
 * or null for any other error.
 */
export function storeBusy(error: unknown): DeskError | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { errcode?: unknown }).errcode;
  const primary = typeof code === 'number' ? code & 0xff : null;
  if (primary !== 5 && primary !== 6) return null;
  return new DeskError('busy', 'The desk’s data file is in use by another task or program, so nothing was changed');
}
