import { randomUUID } from '../node-crypto.ts';
import { z } from 'zod';
import { nextTurn, type Turn } from '../turn.ts';
import type { Store } from './db.ts';
import { draftEntry, type DraftEntry } from './draft-entry.ts';
import { removeScratchFile, scratchFileOf } from './scratch-file.ts';
import { jsonColumn, parseRow, parseRows } from './sql.ts';

/**
 * Changes staged but not written yet, by target, that later inputs see (the
 * drafts' staging, core/drafts/draft-staging.ts): a Map for one call, the
 * scratch tables below for a whole file checked a slice at a time.
 */
export interface Staging {
  get(target: string): DraftEntry | undefined;
  has(target: string): boolean;
  set(target: string, entry: DraftEntry): unknown;
  values(): Iterable<DraftEntry>;
  /** Reads these targets at once: the next lookups are among them (a store-backed staging). */
  warm?(targets: readonly string[]): void;
}

/**
 * Scratch tables for checking a whole file a slice at a time: the changes
 * staged so far, which later rows must see (a relist after its delete), and
 * the first line each key was seen on. A million rows cost disk there, not
 * memory here.
 *
 * A slice's reads and writes go through memory: `warm` reads the rows a
 * slice will ask for at once, writes wait in memory until `flush` writes
 * them, and a small bit set of the keys seen so far answers "never seen"
 * without a query for nearly every new key.
 *
 * Each job's tables are a private database of their own (a file beside the
 * profile, scratch-file.ts), let go by detaching it and deleting the file. Kept in
 * the store's temporary database instead, a million rows' tables took some
 * 60 ms to drop (a drop reads every page), and what they had written stayed
 * in a file open for the store's whole life, which the system wrote out
 * later: a commit of the profile waited behind that writeback, half a second
 * after a million-row preview. A detached database's file is closed at once,
 * then deleted off the loop, and what it had not written goes with it.
 */
export interface Scratch {
  readonly staging: Staging;
  /** Duplicate keys of one kind (`what`: asset, listing, sku, target): the line a key was first seen on, null the first time. */
  seen(what: string): (key: string, line: number) => number | null;
  /** Writes what the slice staged and saw; the next slice starts afresh in memory. */
  flush(): void;
  /** Lets go of the tables: their database is detached a turn after it returns. */
  dispose(): void;
}

/** Bits of the seen-key filter: 2 MB, about one false "maybe" in twenty at a million keys. */
const FILTER_BITS = 1 << 24;

/** FNV-1a: spreads keys over the filter's bits. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A staged change as its table keeps it: the entry as JSON (its target is the entry's own). */
const stagedRow = z.object({ entry: jsonColumn(draftEntry) });
const seenRow = z.object({ line: z.number() });

/** `turn`: waited for before the detach; SQLite refuses to detach inside a transaction, and a job may let go in one. */
export function createScratch(store: Pick<Store, 'db' | 'path'>, turn: Turn = nextTurn): Scratch {
  const { db } = store;
  const id = randomUUID().replaceAll('-', '');
  const schema = `scratch_${id}`;
  const file = scratchFileOf(store.path, id);
  db.prepare(`ATTACH DATABASE ? AS ${schema}`).run(file);
  // Scratch: never synced, its undo kept in memory, locked once for its life rather than at every write.
  db.exec(`PRAGMA ${schema}.journal_mode = MEMORY; PRAGMA ${schema}.synchronous = OFF; PRAGMA ${schema}.locking_mode = EXCLUSIVE`);
  db.exec(`CREATE TABLE ${schema}.staged (target TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE ${schema}.seen (key TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;`);
  const sql = {
    get: db.prepare(`SELECT entry FROM ${schema}.staged WHERE target = ?`),
    warm: db.prepare(`SELECT target, entry FROM ${schema}.staged WHERE target IN (SELECT value FROM json_each(?))`),
    // A JSON array of entries: each element's text is the entry as stored.
    write: db.prepare(`INSERT OR REPLACE INTO ${schema}.staged (target, entry) SELECT value ->> '$.target', value FROM json_each(?)`),
    all: db.prepare(`SELECT entry FROM ${schema}.staged`),
    seenGet: db.prepare(`SELECT line FROM ${schema}.seen WHERE key = ?`),
    seenWrite: db.prepare(`INSERT INTO ${schema}.seen (key, line) SELECT value ->> 0, value ->> 1 FROM json_each(?)`),
  };

  /**
   * What this slice read (null: none stored), staged and saw, in memory until `flush`. Each slice starts with new
   * maps rather than clearing these: a cleared (or grown) Map's old table points on to its new one, so once a table
   * has outlived a scavenge, every table after it, and every entry in them, was kept alive through the scavenges
   * that followed and moved to the old generation (half of what a preview of a million rows put there).
   */
  let slice = new Map<string, DraftEntry | null>();
  let unwritten = new Set<string>();
  let newKeys = new Map<string, number>();
  const read = (target: string): DraftEntry | null => {
    const known = slice.get(target);
    if (known !== undefined) return known;
    const row = sql.get.get(target);
    const entry = row === undefined ? null : parseRow('scratch_staged', stagedRow, row).entry;
    slice.set(target, entry);
    return entry;
  };

  const filter = new Uint8Array(FILTER_BITS / 8);
  const bit = (text: string): number => hash(text) % FILTER_BITS;

  const flush = () => {
    if (unwritten.size > 0) sql.write.run(JSON.stringify([...unwritten].map((t) => slice.get(t))));
    if (newKeys.size > 0) sql.seenWrite.run(JSON.stringify([...newKeys]));
    slice = new Map();
    unwritten = new Set();
    newKeys = new Map();
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
      for (const row of sql.all.iterate()) yield parseRow('scratch_staged', stagedRow, row).entry;
    },
    warm(targets) {
      flush();
      for (const t of targets) slice.set(t, null);
      for (const row of parseRows('scratch_staged', stagedRow, sql.warm.all(JSON.stringify(targets)))) slice.set(row.entry.target, row.entry);
    },
  };

  return {
    staging,
    // `what` is a plain word (asset, sku, …): the first colon ends it, so `what:key` names one key of one kind.
    seen: (what) => (key, line) => {
      const k = `${what}:${key}`;
      const b = bit(k);
      const maybe = (filter[b >>> 3] ?? 0) & (1 << (b & 7));
      if (maybe) {
        const pending = newKeys.get(k);
        if (pending !== undefined) return pending;
        const row = sql.seenGet.get(k);
        if (row !== undefined) return parseRow('scratch_seen', seenRow, row).line;
      }
      filter[b >>> 3] = (filter[b >>> 3] ?? 0) | (1 << (b & 7));
      newKeys.set(k, line);
      return null;
    },
    flush,
    dispose() {
      slice = new Map();
      unwritten = new Set();
      newKeys = new Map();
      // A store closed meanwhile took the database with it: nothing is left to detach.
      void turn().then(() => db.exec(`DETACH DATABASE ${schema}`)).catch(() => undefined).finally(() => removeScratchFile(file));
    },
  };
}
