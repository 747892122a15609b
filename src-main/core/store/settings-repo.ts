import type { z } from 'zod';
import { PLAIN_PARSE } from '../../../src-shared/plain-parse.ts';
import type { Store } from './db.ts';
import { keysOf, valueOf } from './typed-rows.ts';

/**
 * A small key/value table for preferences (JSON values). Each read is checked
 * with the caller's schema, so a value written by an older app version that no
 * longer fits falls back to the default instead of breaking startup.
 */
export interface SettingsRepo {
  get<T extends z.ZodType>(key: string, schema: T, fallback: z.output<T>): z.output<T>;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  keys(): string[];
}

export function createSettingsRepo(store: Store): SettingsRepo {
  const { db } = store;
  const selectOne = db.prepare('SELECT value FROM settings WHERE key = ?');
  const upsert = db.prepare(`
    INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`);
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');
  const selectKeys = db.prepare('SELECT key FROM settings ORDER BY key');

  return {
    get(key, schema, fallback) {
      const value = valueOf('settings', selectOne.get(key));
      if (value === undefined) return fallback;
      let raw: unknown;
      try {
        raw = JSON.parse(value);
      } catch {
        return fallback;
      }
      // A preference is read at open or after a change: the plain path (PLAIN_PARSE).
      const parsed = schema.safeParse(raw, PLAIN_PARSE);
      return parsed.success ? parsed.data : fallback;
    },
    set(key, value) {
      const text = JSON.stringify(value);
      if (text === undefined) throw new TypeError(`setting ${key} has no JSON form`);
      upsert.run(key, text, store.clock.now());
    },
    delete(key) {
      remove.run(key);
    },
    keys: () => keysOf('settings', selectKeys.all()),
  };
}
