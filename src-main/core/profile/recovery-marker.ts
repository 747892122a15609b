import { rmSync } from 'node:fs';
import { z } from 'zod';
import { readFileIfAny, writeWholeFile } from '../whole-file.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The note that a profile's file was moved aside and the trader has not
 * yet chosen what to do (`<profile>.recovery.json` beside the profile).
 * While it is there, every start shows the recovery screen again (after a
 * quit, a crash, a data worker restarted while the screen waited) instead
 * of opening a new, empty profile in the file's place. Restoring a backup
 * or starting fresh removes it.
 */
export const recoveryMarker = lazySchema(() => z.object({
  kind: z.enum(['damaged', 'newer']),
  /** The sentence the recovery screen showed first, shown again. */
  message: z.string(),
  /** The file that could not be opened. */
  file: z.string(),
  /** Where it was moved (with its -wal and -shm); null when the note no longer says. */
  movedTo: z.string().nullable(),
  /** When it was moved (ms since the epoch). */
  at: z.number(),
}));
export type RecoveryMarker = z.infer<typeof recoveryMarker>;

/** Writes the note whole (beside it, flushed, then renamed into place), so a crash never leaves half of one. */
export function writeRecoveryMarker(path: string, marker: RecoveryMarker): void {
  writeWholeFile(path, JSON.stringify(marker, null, 2));
}

/**
 * The note, or null when there is none. One that cannot be read still
 * means a file was moved aside: it is answered as a damaged profile whose
 * moved file is not known, so the trader still decides.
 */
export function readRecoveryMarker(path: string, homePath: string): RecoveryMarker | null {
  const text = readFileIfAny(path);
  if (text === null) return null;
  try {
    return recoveryMarker.parse(JSON.parse(text));
  } catch {
    return {
      kind: 'damaged',
      message: `The profile’s data file could not be opened earlier and was moved aside; the note of where it went (${path}) cannot be read. Restore a backup or start fresh.`,
      file: homePath,
      movedTo: null,
      at: 0,
    };
  }
}

export const clearRecoveryMarker = (path: string): void => rmSync(path, { force: true });
