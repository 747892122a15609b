import { mkdirSync } from 'node:fs';
import { readFileIfAny, writeWholeFile } from '../../core/whole-file.ts';

/** Makes `dir` (and its parents) for this user alone: the server's secrets live there. */
export function privateDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Writes `text` to `path` readable by this user alone: a new file made with
 * mode 0600, synced, then renamed over the old one, so no moment exists when
 * the key is in a file others may read or half written.
 */
export function writePrivateFile(path: string, text: string): void {
  writeWholeFile(path, text, 0o600);
}

/** A JSON file written by writePrivateFile, or null when there is none. */
export function readJsonFile(path: string): unknown {
  const text = readFileIfAny(path);
  return text === null ? null : JSON.parse(text);
}
