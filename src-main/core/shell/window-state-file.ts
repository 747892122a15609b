import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type SavedWindowState, savedWindowStateSchema } from './window-bounds.ts';

/**
 * Where the window's size and place are kept between runs. A port, so the
 * window code can be tested with any store and the composition root picks the
 * file (in the user-data folder).
 */
export interface WindowStateStore {
  /** The saved state, or null when there is none or it cannot be read. */
  load(): Promise<SavedWindowState | null>;
  save(state: SavedWindowState): Promise<void>;
  /** Resolves when every save asked for so far has ended (the quit waits for it). */
  settled(): Promise<void>;
}

/**
 * A small JSON file. A missing, truncated or foreign file reads as "no saved
 * state" (the window then opens at its default size): losing a window
 * position is harmless, refusing to start over it is not. Writes go to a
 * temporary file first and are renamed over the old one, so a crash mid-write
 * leaves the previous state intact. Saves run one after another, so two
 * never write the same temporary file at once.
 */
export function createWindowStateFile(filePath: string): WindowStateStore {
  let writing: Promise<unknown> = Promise.resolve();
  const write = async (valid: SavedWindowState) => {
    await mkdir(dirname(filePath), { recursive: true });
    const temp = `${filePath}.${process.pid}.tmp`;
    await writeFile(temp, `${JSON.stringify(valid)}\n`, 'utf8');
    await rename(temp, filePath);
  };
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(filePath, 'utf8');
      } catch {
        return null;
      }
      try {
        const parsed = savedWindowStateSchema.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    save(state) {
      const saved = writing.then(() => write(savedWindowStateSchema.parse(state)));
      writing = saved.catch(() => undefined);
      return saved;
    },
    settled: () => writing.then(() => undefined),
  };
}
