import { notFound, quoted } from '../errors.ts';
import { isSettled, type Change, type DraftEntry } from './change.ts';

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
  /**
   * Lays a bulk patch over its slot without writing its entries in. They are
   * written in a slice at a time while the app is idle (`writeIn`), and all
   * at once, in the order the patches were laid, before anything else reads
   * or writes that slot (every method here but `peek`, `laid` and `writeIn`),
   * so what is read then is exactly what writing them at once would have
   * left. Meanwhile a page of a table reads through the patch (`peek`), and a
   * bulk edit's reply and the rows the screen asks for next do not wait for
   * tens of thousands of entries to be built.
   */
  lay(layer: EntryLayer): void;
  /** The entry at a slot's ID as the laid patches leave it, writing nothing in. */
  peek(slot: Slot, id: string): DraftEntry | undefined;
  /** A slot's patches laid and not yet written in, oldest first. */
  laid(slot: Slot): readonly EntryLayer[];
  /** Writes in up to `max` targets of the laid patches, oldest first; returns how many it wrote. */
  writeIn(max: number): number;
}

/** A bulk patch as laid over one slot of an entry index (see patch.ts, which makes them). */
export interface EntryLayer {
  readonly slot: 'L' | 'B';
  /** The IDs it touches, in its order, each once. */
  readonly ids: readonly string[];
  /**
   * The entry it makes of `ids[i]` over the entry before, or null where it
   * leaves that one as it is, which it does for an entry it made itself (as
   * new as the patch): writing in a target twice, or reading one through the
   * patch after it was written in, changes nothing.
   */
  entryAt(i: number, before: DraftEntry | undefined): DraftEntry | null;
  /** The kind of change `ids[i]` then holds, pending (null as for `entryAt`), building nothing. */
  kindAt(i: number, before: DraftEntry | undefined): Change['kind'] | null;
  /** Where an ID first comes in `ids`, or -1. */
  indexOf(id: string): number;
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
  /** Patches laid over each slot, oldest first, with how far each is written in. */
  const layers: Record<Slot, { layer: EntryLayer; next: number }[]> = { L: [], LD: [], B: [], BD: [], ALL: [] };
  /** Writes in up to `max` targets of a slot's laid patches, oldest first, as applying each at once would have. */
  const writeIn = (slot: Slot, max: number): number => {
    const map = maps[slot];
    const laid = layers[slot];
    let written = 0;
    while (laid.length > 0 && written < max) {
      const head = laid[0] as { layer: EntryLayer; next: number };
      const { ids } = head.layer;
      const end = Math.min(ids.length, head.next + (max - written));
      for (let i = head.next; i < end; i++) {
        const id = ids[i] as string;
        const next = head.layer.entryAt(i, map.get(id));
        if (next !== null) map.set(id, next);
      }
      written += end - head.next;
      head.next = end;
      if (end === ids.length) laid.shift();
    }
    return written;
  };
  const settle = (slot: Slot): Map<string, DraftEntry> => {
    if (layers[slot].length > 0) writeIn(slot, Number.POSITIVE_INFINITY);
    return maps[slot];
  };
  const settleAll = () => {
    for (const slot of Object.keys(maps) as Slot[]) settle(slot);
  };
  const index: EntryIndex = {
    get(target) {
      const [slot, id] = parseTarget(target);
      return settle(slot).get(id);
    },
    set(entry) {
      const [slot, id] = parseTarget(entry.target);
      settle(slot).set(id, entry);
    },
    put(slot, id, entry) {
      settle(slot).set(id, entry);
    },
    delete(target) {
      const [slot, id] = parseTarget(target);
      settle(slot).delete(id);
    },
    *values() {
      settleAll();
      for (const m of Object.values(maps)) yield* m.values();
    },
    get size() {
      settleAll();
      return maps.L.size + maps.LD.size + maps.B.size + maps.BD.size + maps.ALL.size;
    },
    slot: (slot) => settle(slot),
    lay(layer) {
      layers[layer.slot].push({ layer, next: 0 });
    },
    peek(slot, id) {
      let entry = maps[slot].get(id);
      for (const { layer } of layers[slot]) {
        const i = layer.indexOf(id);
        if (i >= 0) entry = layer.entryAt(i, entry) ?? entry;
      }
      return entry;
    },
    laid: (slot) => layers[slot].map((l) => l.layer),
    writeIn(max) {
      let written = 0;
      for (const slot of Object.keys(layers) as Slot[]) written += writeIn(slot, max - written);
      return written;
    },
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
    lay: () => {
      throw new Error('an overlay is read-only');
    },
    peek: (slot, id) => staged.get(slot === 'ALL' ? id : `${slot}:${id}`) ?? base.peek(slot, id),
    laid: () => [],
    writeIn: () => 0,
  };
  return { draftId: ws.draftId, entries, nextSeq: ws.nextSeq };
}
