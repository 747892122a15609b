import { randomUUID } from 'node:crypto';
import type { Store } from '../store/db.ts';
import type { DraftEntry } from './change.ts';
import type { Staging } from './draft-staging.ts';
import type { SeenKeys } from './csv-format.ts';

/**
 * Scratch tables for checking a whole file a slice at a time, kept in the
 * store's temporary database (a file SQLite manages, not the profile): the
 * changes staged so far, which later rows must see (a relist after its
 * delete), and the first line each key was seen on. A million rows cost
 * disk there, not memory here. Each job has its own ID; `dispose` empties it.
 */
export interface Scratch {
  readonly staging: Staging;
  /** Duplicate keys of one kind (`what`: asset, listing, sku, target). */
  seen(what: string): SeenKeys;
  dispose(): void;
}

export function createScratch(store: Pick<Store, 'db'>): Scratch {
  const { db } = store;
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS scratch_staged (job TEXT NOT NULL, target TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (job, target)) WITHOUT ROWID;
    CREATE TEMP TABLE IF NOT EXISTS scratch_seen (job TEXT NOT NULL, what TEXT NOT NULL, key TEXT NOT NULL, line INTEGER NOT NULL, PRIMARY KEY (job, what, key)) WITHOUT ROWID;`);
  const job = randomUUID();
  const getStmt = db.prepare('SELECT entry FROM temp.scratch_staged WHERE job = ? AND target = ?');
  const setStmt = db.prepare('INSERT OR REPLACE INTO temp.scratch_staged (job, target, entry) VALUES (?, ?, ?)');
  const allStmt = db.prepare('SELECT entry FROM temp.scratch_staged WHERE job = ?');
  const seenGet = db.prepare('SELECT line FROM temp.scratch_seen WHERE job = ? AND what = ? AND key = ?');
  const seenSet = db.prepare('INSERT INTO temp.scratch_seen (job, what, key, line) VALUES (?, ?, ?, ?)');
  const staging: Staging = {
    get(target) {
      const row = getStmt.get(job, target) as { entry: string } | undefined;
      return row ? (JSON.parse(row.entry) as DraftEntry) : undefined;
    },
    has: (target) => getStmt.get(job, target) !== undefined,
    set(target, entry) {
      setStmt.run(job, target, JSON.stringify(entry));
    },
    *values() {
      for (const row of allStmt.iterate(job) as Iterable<{ entry: string }>) yield JSON.parse(row.entry) as DraftEntry;
    },
  };
  return {
    staging,
    seen: (what) => (key, line) => {
      const row = seenGet.get(job, what, key) as { line: number } | undefined;
      if (row) return row.line;
      seenSet.run(job, what, key, line);
      return null;
    },
    dispose() {
      db.prepare('DELETE FROM temp.scratch_staged WHERE job = ?').run(job);
      db.prepare('DELETE FROM temp.scratch_seen WHERE job = ?').run(job);
    },
  };
}
