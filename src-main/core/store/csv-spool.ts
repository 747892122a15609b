import { randomUUID } from '../node-crypto.ts';
import { z } from 'zod';
import type { Store } from './db.ts';
import { parseRow } from './sql.ts';

/**
 * A CSV file's text kept from its preview to its commit, which reads it
 * again: in a table of the store's temporary database (a file SQLite
 * manages, not the profile), a part a row, so the worker's memory never
 * holds the file, however large, while the trader reads the preview.
 *
 * Each part is kept deflated. The system writes out what the temporary file
 * holds once it has been kept about half a minute, and a synced commit of the
 * profile meanwhile waits behind that write: a commit run after a preview of
 * 1,000,000 rows was held 52–64 ms at worst, against 40–48 after a small one.
 * A CSV deflates several times over (that file's 31 MB is 4.8 MB), so there is
 * that much less to write, and to keep on disk.
 * The deflating runs on libuv's pool, not on the worker's loop.
 */
export interface CsvSpool {
  /** Keeps a part; parts are kept in the order `append` is called, whenever each one's deflating ends. */
  append(part: string): Promise<void>;
  /** The parts in the order they were appended, read and inflated one at a time. */
  parts(): AsyncIterable<string>;
  /** Drops the table; safe to call again. */
  dispose(): void;
}

const spoolRow = z.object({ part: z.instanceof(Uint8Array) });

// Loaded the first time a file is kept, not with the desk's code on its way to the first page (as node-crypto.ts).
const zlib = () => process.getBuiltinModule('node:zlib');
// The fastest level: most of what a CSV's text saves, at a small part of the CPU a higher level takes.
const deflate = (text: string) => new Promise<Buffer>((resolve, reject) => {
  zlib().deflateRaw(text, { level: 1 }, (error, packed) => (error ? reject(error) : resolve(packed)));
});
const inflate = (packed: Uint8Array) => new Promise<string>((resolve, reject) => {
  zlib().inflateRaw(packed, (error, text) => (error ? reject(error) : resolve(text.toString('utf8'))));
});

export function createSpool(store: Pick<Store, 'db'>): CsvSpool {
  const { db } = store;
  const table = `temp.csv_spool_${randomUUID().replaceAll('-', '')}`;
  db.exec(`CREATE TABLE ${table} (n INTEGER PRIMARY KEY, part BLOB NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${table} (n, part) VALUES (?, ?)`);
  const select = db.prepare(`SELECT part FROM ${table} WHERE n = ?`);
  let count = 0;
  let disposed = false;
  return {
    async append(part) {
      // The part's place is taken now, so the order holds whichever deflating ends first.
      const n = count;
      count += 1;
      const packed = await deflate(part);
      if (!disposed) insert.run(n, packed);
    },
    async *parts() {
      for (let n = 0; n < count && !disposed; n++) {
        const packed = parseRow('csv_spool', spoolRow, select.get(n)).part;
        yield await inflate(packed);
      }
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    },
  };
}
