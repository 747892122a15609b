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
 * disk there, not memory here.
 *
 * A slice's reads and writes go through memory: `warm` reads the rows a
 * slice will ask for in one query, writes wait in memory until `flush`
 * writes them in one statement, and a small bit set of the keys seen so far
 * answers "never seen" without a query for nearly every new key. Each job has
 * tables of its own, dropped by `dispose` (dropping is quick; deleting a
 * million rows is not).
 */
export interface Scratch {
  readonly staging: Staging;
  /** Duplicate keys of one kind (`what`: asset, listing, sku, target). */
  seen(what: string): SeenKeys;
  /** Writes what the slice staged and saw; the next slice starts afresh in memory. */
  flush(): void;
  dispose(): void;
}

/** Bits of the seen-key filter: 2 MB, about one false "maybe" in twenty at a million keys. */
const FILTER_BITS = 1 << 24;

export function createScratch(store: Pick<Store, 'db'>): Scratch {
  const { db } = store;
  const id = randomUUID().replaceAll('-', '');
  const staged = `temp.scratch_staged_${id}`;
  const seenTable = `temp.scratch_seen_${id}`;
  db.exec(`CREATE TABLE ${staged} (target TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE ${seenTable} (what TEXT NOT NULL, key TEXT NOT NULL, line INTEGER NOT NULL, PRIMARY KEY (what, key)) WITHOUT ROWID;`);
  const getStmt = db.prepare(`SELECT entry FROM ${staged} WHERE target = ?`);
  const warmStmt = db.prepare(`SELECT target, entry FROM ${staged} WHERE target IN (SELECT value FROM json_each(?))`);
  const writeStmt = db.prepare(`INSERT OR REPLACE INTO ${staged} (target, entry) SELECT value ->> 0, value ->> 1 FROM json_each(?)`);
  const allStmt = db.prepare(`SELECT entry FROM ${staged}`);
  const seenGet = db.prepare(`SELECT line FROM ${seenTable} WHERE what = ? AND key = ?`);
  const seenWrite = db.prepare(`INSERT INTO ${seenTable} (what, key, line) SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`);

  // This slice's rows: read (null: none stored) or staged and not yet written.
  const slice = new Map<string, DraftEntry | null>();
  const unwritten = new Set<string>();
  const read = (target: string): DraftEntry | null => {
    const known = slice.get(target);
    if (known !== undefined) return known;
    const row = getStmt.get(target) as { entry: string } | undefined;
    const entry = row ? (JSON.parse(row.entry) as DraftEntry) : null;
    slice.set(target, entry);
    return entry;
  };

  const filter = new Uint8Array(FILTER_BITS / 8);
  const newKeys = new Map<string, number>();
  const bit = (text: string): number => {
    // FNV-1a: spread the keys over the filter's bits.
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return (h >>> 0) % FILTER_BITS;
  };

  const flush = () => {
    if (unwritten.size > 0) {
      writeStmt.run(JSON.stringify([...unwritten].map((t) => [t, JSON.stringify(slice.get(t))])));
      unwritten.clear();
    }
    if (newKeys.size > 0) {
      seenWrite.run(JSON.stringify([...newKeys].map(([k, line]) => [...splitSeen(k), line])));
      newKeys.clear();
    }
    slice.clear();
  };

  const staging: Staging = {
    get: (target) => read(target) ?? undefined,
    has: (target) => read(target) !== null,
    set(target, entry) {
      slice.set(target, entry);
      unwritten.add(target);
    },
    *values() {
      flush();
      for (const row of allStmt.iterate() as Iterable<{ entry: string }>) yield JSON.parse(row.entry) as DraftEntry;
    },
    warm(targets) {
      flush();
      for (const t of targets) slice.set(t, null);
      for (const row of warmStmt.all(JSON.stringify(targets)) as { target: string; entry: string }[]) slice.set(row.target, JSON.parse(row.entry) as DraftEntry);
    },
  };

  return {
    staging,
    seen: (what) => (key, line) => {
      const k = `${what}\u0000${key}`;
      const b = bit(k);
      const maybe = (filter[b >>> 3] ?? 0) & (1 << (b & 7));
      if (maybe) {
        const pending = newKeys.get(k);
        if (pending !== undefined) return pending;
        const row = seenGet.get(what, key) as { line: number } | undefined;
        if (row) return row.line;
      }
      filter[b >>> 3] = (filter[b >>> 3] ?? 0) | (1 << (b & 7));
      newKeys.set(k, line);
      return null;
    },
    flush,
    dispose() {
      slice.clear();
      unwritten.clear();
      newKeys.clear();
      db.exec(`DROP TABLE IF EXISTS ${staged}; DROP TABLE IF EXISTS ${seenTable};`);
    },
  };
}

const splitSeen = (k: string): [string, string] => {
  const at = k.indexOf('\u0000');
  return [k.slice(0, at), k.slice(at + 1)];
};
