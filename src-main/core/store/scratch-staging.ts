import { randomUUID } from '../node-crypto.ts';
import { z } from 'zod';
import { nextTurn, type Turn } from '../turn.ts';
import type { Store } from './db.ts';
import { draftEntry, type DraftEntry } from './draft-entry.ts';
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
 * Scratch tables for checking a whole file a slice at a time, kept in the
 * store's temporary database (a file SQLite manages, not the profile): the
 * changes staged so far, which later rows must see (a relist after its
 * delete), and the first line each key was seen on. A million rows cost
 * disk there, not memory here.
 *
 * A slice's reads and writes go through memory: `warm` reads the rows a
 * slice will ask for at once, writes wait in memory until `flush` writes
 * them, and a small bit set of the keys seen so far answers "never seen"
 * without a query for nearly every new key. Each job has tables of its own,
 * dropped by `dispose` (dropping is quick; deleting a million rows is not).
 * Even a drop reads every page of its table, though: some 60 ms for the
 * tables of a million rows, a step no other call could come in during. So
 * each kind of row is spread over a few tables by a hash of its key (a key
 * always in the same one), and they are dropped one a turn.
 */
export interface Scratch {
  readonly staging: Staging;
  /** Duplicate keys of one kind (`what`: asset, listing, sku, target): the line a key was first seen on, null the first time. */
  seen(what: string): (key: string, line: number) => number | null;
  /** Writes what the slice staged and saw; the next slice starts afresh in memory. */
  flush(): void;
  /** Lets go of the tables: they are dropped one a turn, after it returns. */
  dispose(): void;
}

/** Bits of the seen-key filter: 2 MB, about one false "maybe" in twenty at a million keys. */
const FILTER_BITS = 1 << 24;

/**
 * Tables each kind of row is spread over: an eighth of a million rows drops
 * in about 10 ms. More would drop quicker still, but each is one more
 * statement per slice to read and write (16 made the preview of a million
 * rows 18% slower; 8, 11%).
 */
const SHARDS = 8;

/** FNV-1a: spreads keys over the filter's bits and over the tables. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const shardOf = (key: string): number => hash(key) % SHARDS;

/** Items grouped by the table their key is in. */
function byShard<T>(items: Iterable<T>, key: (item: T) => string): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const s = shardOf(key(item));
    const group = groups.get(s);
    if (group) group.push(item);
    else groups.set(s, [item]);
  }
  return groups;
}

/** A staged change as its table keeps it: the entry as JSON (its target is the entry's own). */
const stagedRow = z.object({ entry: jsonColumn(draftEntry) });
const seenRow = z.object({ line: z.number() });

/** `turn`: how the tables' drop gives the event loop back between them. */
export function createScratch(store: Pick<Store, 'db'>, turn: Turn = nextTurn): Scratch {
  const { db } = store;
  const id = randomUUID().replaceAll('-', '');
  const shards = Array.from({ length: SHARDS }, (_, n) => {
    const staged = `temp.scratch_staged_${id}_${n}`;
    const seen = `temp.scratch_seen_${id}_${n}`;
    db.exec(`CREATE TABLE ${staged} (target TEXT PRIMARY KEY, entry TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE ${seen} (key TEXT PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID;`);
    return {
      drop: `DROP TABLE IF EXISTS ${staged}; DROP TABLE IF EXISTS ${seen};`,
      get: db.prepare(`SELECT entry FROM ${staged} WHERE target = ?`),
      warm: db.prepare(`SELECT target, entry FROM ${staged} WHERE target IN (SELECT value FROM json_each(?))`),
      // A JSON array of entries: each element's text is the entry as stored.
      write: db.prepare(`INSERT OR REPLACE INTO ${staged} (target, entry) SELECT value ->> '$.target', value FROM json_each(?)`),
      all: db.prepare(`SELECT entry FROM ${staged}`),
      seenGet: db.prepare(`SELECT line FROM ${seen} WHERE key = ?`),
      seenWrite: db.prepare(`INSERT INTO ${seen} (key, line) SELECT value ->> 0, value ->> 1 FROM json_each(?)`),
    };
  });
  const shard = (key: string) => shards[shardOf(key)] as (typeof shards)[number];

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
    const row = shard(target).get.get(target);
    const entry = row === undefined ? null : parseRow('scratch_staged', stagedRow, row).entry;
    slice.set(target, entry);
    return entry;
  };

  const filter = new Uint8Array(FILTER_BITS / 8);
  const bit = (text: string): number => hash(text) % FILTER_BITS;

  const flush = () => {
    for (const [s, targets] of byShard(unwritten, (t) => t)) shards[s]?.write.run(JSON.stringify(targets.map((t) => slice.get(t))));
    for (const [s, keys] of byShard(newKeys.keys(), (k) => k)) shards[s]?.seenWrite.run(JSON.stringify(keys.map((k) => [k, newKeys.get(k)])));
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
      for (const s of shards) for (const row of s.all.iterate()) yield parseRow('scratch_staged', stagedRow, row).entry;
    },
    warm(targets) {
      flush();
      for (const t of targets) slice.set(t, null);
      for (const [s, group] of byShard(targets, (t) => t)) {
        for (const row of parseRows('scratch_staged', stagedRow, shards[s]?.warm.all(JSON.stringify(group)) ?? [])) slice.set(row.entry.target, row.entry);
      }
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
        const row = shard(k).seenGet.get(k);
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
      void (async () => {
        for (const s of shards) {
          db.exec(s.drop);
          await turn();
        }
        // A store closed meanwhile took its temporary tables with it: nothing is left to drop.
      })().catch(() => undefined);
    },
  };
}
