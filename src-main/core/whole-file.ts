import { closeSync, copyFileSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from './node-crypto.ts';
import { dirname, join } from 'node:path';

/**
 * Writes `text` to `path` whole: a new file beside it (made with `mode`),
 * synced, then renamed over the old one, so a crash leaves the old file or
 * the new one and never half of one.
 */
export function writeWholeFile(path: string, text: string, mode = 0o666): void {
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** Copies `from` to `to` and flushes the copy to the disk before returning. */
export function copyFileSynced(from: string, to: string): void {
  copyFileSync(from, to);
  syncFile(to);
}

/** Flushes what was written to `path` to the disk before returning; false when there is no such file. */
export function syncFile(path: string): boolean {
  const fd = unlessMissing(() => openSync(path, 'r+'));
  if (fd === null) return false;
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The file's text, or null when there is no such file. */
export function readFileIfAny(path: string): string | null {
  return unlessMissing(() => readFileSync(path, 'utf8'));
}

/** What `use` returns, or null when the file it opens is not there; any other failure is thrown. */
function unlessMissing<T>(use: () => T): T | null {
  try {
    return use();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
