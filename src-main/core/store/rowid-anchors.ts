import type { Store } from './db.ts';

/**
 * The rowids at which jumps into a ledger table landed, learned from the
 * pages asked.
 *
 * A page jumped to (the scrollbar dragged, a page asked out of order) that
 * shows every row of its table starts at the table's `offset`-th row in rowid
 * order, and SQLite finds that row by stepping over every row before it
 * (`LIMIT 1 OFFSET n`): 0.6 ms at 25,000 rows, 2.2 ms at 49,000, on every
 * such page. Each jump's anchor (its offset and its first row's rowid) is
 * kept here, and the next jump steps from the nearest anchor at or before it
 * (`rowid >= anchor`), over the rows between the two alone. (A page that
 * follows a row served before it starts after that row's place instead:
 * `core/ledger/ledger-query.ts`.)
 *
 * An anchor holds while the table's rows hold: all of a table's anchors are
 * dropped when rows come or go (the store's `ledgerRowsVersion`, which every
 * insert and delete of the ledger's repos bumps), not when a price or a note
 * changes, which moves no row.
 */
export interface RowidAnchors {
  /** The anchor nearest at or before `offset` in `table`, or null when none is kept. */
  before(table: string, offset: number): Anchor | null;
  /** Keeps an anchor: the `offset`-th row of `table`, in rowid order, has this rowid. */
  keep(table: string, offset: number, rowid: number): void;
}

export interface Anchor {
  readonly offset: number;
  readonly rowid: number;
}

/** Anchors kept per table at most: a long session of jumps starts again from none, not a list without end. */
const MAX_ANCHORS = 4_096;

export function createRowidAnchors(store: Pick<Store, 'ledgerRowsVersion'>): RowidAnchors {
  const tables = new Map<string, { rows: number; anchors: Anchor[] }>();

  /** The table's anchors, in offset order, while its rows are the ones they were learned on. */
  function anchorsOf(table: string): Anchor[] {
    const kept = tables.get(table);
    if (kept?.rows === store.ledgerRowsVersion) return kept.anchors;
    const anchors: Anchor[] = [];
    tables.set(table, { rows: store.ledgerRowsVersion, anchors });
    return anchors;
  }

  /** How many anchors lie at or before `offset`. */
  function countUpTo(anchors: readonly Anchor[], offset: number): number {
    let lo = 0;
    let hi = anchors.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((anchors[mid]?.offset ?? Infinity) <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  return {
    before(table, offset) {
      const anchors = anchorsOf(table);
      return anchors[countUpTo(anchors, offset) - 1] ?? null;
    },
    keep(table, offset, rowid) {
      const anchors = anchorsOf(table);
      if (anchors.length >= MAX_ANCHORS) anchors.length = 0;
      const at = countUpTo(anchors, offset);
      if (anchors[at - 1]?.offset === offset) anchors[at - 1] = { offset, rowid };
      else anchors.splice(at, 0, { offset, rowid });
    },
  };
}
