import { randomUUID } from '../node-crypto.ts';
import { z } from 'zod';
import type { Store } from './db.ts';
import { parseRow } from './sql.ts';

/**
 * A CSV file's text kept from its preview to its commit, which reads it
 * again: in a table of the store's temporary database (a file SQLite
 * manages, not the profile), a part a row, so the worker's memory never
 * holds the file, however large, while the trader reads the preview.
 */
export interface CsvSpool {
  append(part: string): void;
  /** The parts in the order they were appended, read one at a time. */
  parts(): Iterable<string>;
  /** Drops the table; safe to call again. */
  dispose(): void;
}

const spoolRow = z.object({ part: z.string() });

export function createSpool(store: Pick<Store, 'db'>): CsvSpool {
  const { db } = store;
  const table = `temp.csv_spool_${randomUUID().replaceAll('-', '')}`;
  db.exec(`CREATE TABLE ${table} (n INTEGER PRIMARY KEY, part TEXT NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${table} (n, part) VALUES (?, ?)`);
  const select = db.prepare(`SELECT part FROM ${table} WHERE n = ?`);
  let count = 0;
  let disposed = false;
  return {
    append(part) {
      insert.run(count, part);
      count += 1;
    },
    *parts() {
      for (let n = 0; n < count && !disposed; n++) yield parseRow('csv_spool', spoolRow, select.get(n)).part;
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    },
  };
}
