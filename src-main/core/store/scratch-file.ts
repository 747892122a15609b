import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Where a CSV job's scratch database lives: a file beside the store's own
 * (the profile's folder, the same disk), named for the store and the job.
 *
 * Not SQLite's own temporary file (`ATTACH ''`), which it deletes the moment
 * it opens it: the last close of a deleted file frees its blocks in the
 * thread that closes it, and the 1,000,000-row preview's scratch, some
 * 100 MB, held the worker 80 ms so when the job let it go. A file still named
 * when SQLite closes it costs the close nothing; it is then deleted on libuv's
 * pool, which frees its blocks there.
 *
 * A crash leaves its scratch files behind: the store removes them when it
 * opens, before any job of its own can have made one (one store, one
 * connection, a profile at a time under the profile's lock).
 */
const MARK = '.scratch-';

/** A store with no file of its own (in memory, or SQLite's private temporary one) has no folder to keep scratch in. */
const fileless = (storePath: string): boolean => storePath === ':memory:' || storePath === '';

/** The scratch file of job `id` for the store at `storePath`; '' (SQLite's own temporary file) for a store in memory. */
export function scratchFileOf(storePath: string, id: string): string {
  return fileless(storePath) ? '' : `${storePath}${MARK}${id}`;
}

/** Deletes a scratch file SQLite no longer holds, off the loop; one already gone is no error. */
export function removeScratchFile(file: string): void {
  if (file === '') return;
  process.getBuiltinModule('node:fs').unlink(file, () => undefined);
}

/** Deletes the scratch files a crash left beside the store at `storePath` (their names are read now, their deletion is off the loop). */
export function removeLeftoverScratch(storePath: string): void {
  if (fileless(storePath)) return;
  const prefix = `${basename(storePath)}${MARK}`;
  let names: string[];
  try {
    names = readdirSync(dirname(storePath));
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) removeScratchFile(join(dirname(storePath), name));
}
