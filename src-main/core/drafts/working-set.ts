import { notFound, quoted } from '../errors.ts';
import { isSettled, type DraftEntry } from './change.ts';

/**
 * A draft held in memory while it is edited: one entry per target, tombstones
 * included (status `dropped`). Every change is written to the database before
 * it lands here; this index only spares re-reading tens of thousands of rows
 * for each edit.
 *
 * Entries are kept in one map per kind of target, keyed by the bare asset ID
 * or SKU: a bulk operation looks up every row of the ledger, and building a
 * `L:<asset>` string for each lookup (then hashing it) would cost more than
 * all the rest of the operation.
 */
export type Slot = 'L' | 'LD' | 'B' | 'BD' | 'ALL';

export interface EntryIndex {
  get(target: string): DraftEntry | undefined;
  set(entry: DraftEntry): void;
  /** `set` when the slot and bare ID are known: no key string is parsed (bulk operations). */
  put(slot: Slot, id: string, entry: DraftEntry): void;
  delete(target: string): void;
  values(): Iterable<DraftEntry>;
  readonly size: number;
  /** The map of one slot, keyed by asset ID, SKU, or the whole key for `ALL`. */
  slot(slot: Slot): ReadonlyMap<string, DraftEntry>;
}

export interface WorkingSet {
  readonly draftId: string;
  readonly entries: EntryIndex;
  /** The next sequence number: orders single edits and bulk patches. */
  nextSeq: number;
}

/** Splits a target key into its slot and bare ID. */
export function parseTarget(target: string): [Slot, string] {
  const colon = target.indexOf(':');
  if (colon < 0) return ['ALL', target];
  const prefix = target.slice(0, colon);
  if (prefix === 'L' || prefix === 'LD' || prefix === 'B' || prefix === 'BD') return [prefix, target.slice(colon + 1)];
  throw notFound(`There is no change ${quoted(target)} in this draft`);
}

export function createEntryIndex(initial: Iterable<DraftEntry> = []): EntryIndex {
  const maps: Record<Slot, Map<string, DraftEntry>> = { L: new Map(), LD: new Map(), B: new Map(), BD: new Map(), ALL: new Map() };
  const index: EntryIndex = {
    get(target) {
      const [slot, id] = parseTarget(target);
      return maps[slot].get(id);
    },
    set(entry) {
      const [slot, id] = parseTarget(entry.target);
      maps[slot].set(id, entry);
    },
    put(slot, id, entry) {
      maps[slot].set(id, entry);
    },
    delete(target) {
      const [slot, id] = parseTarget(target);
      maps[slot].delete(id);
    },
    *values() {
      for (const m of Object.values(maps)) yield* m.values();
    },
    get size() {
      return maps.L.size + maps.LD.size + maps.B.size + maps.BD.size + maps.ALL.size;
    },
    slot: (slot) => maps[slot],
  };
  for (const e of initial) index.set(e);
  return index;
}

/** The entry at `target` unless settled (done or dropped): what merging sees. */
export function liveEntry(ws: WorkingSet, target: string): DraftEntry | undefined {
  const e = ws.entries.get(target);
  return e && !isSettled(e.status) ? e : undefined;
}

export function* liveEntries(ws: WorkingSet): Iterable<DraftEntry> {
  for (const e of ws.entries.values()) if (!isSettled(e.status)) yield e;
}

/**
 * A working set seen through staged, not yet written entries: merging a list
 * of inputs lets each see the ones before it without copying the whole draft.
 */
export function overlay(ws: WorkingSet, staged: ReadonlyMap<string, DraftEntry>): WorkingSet {
  const base = ws.entries;
  const entries: EntryIndex = {
    get: (t) => staged.get(t) ?? base.get(t),
    set: () => {
      throw new Error('an overlay is read-only');
    },
    put: () => {
      throw new Error('an overlay is read-only');
    },
    delete: () => {
      throw new Error('an overlay is read-only');
    },
    *values() {
      for (const e of base.values()) if (!staged.has(e.target)) yield e;
      yield* staged.values();
    },
    get size() {
      return [...entries.values()].length;
    },
    slot: () => {
      throw new Error('an overlay has no slots');
    },
  };
  return { draftId: ws.draftId, entries, nextSeq: ws.nextSeq };
}
