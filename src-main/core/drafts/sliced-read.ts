import type { CheckedRows } from '../store/sql.ts';

/**
 * Reading tens of thousands of stored rows into memory (the ledger, a large
 * draft) takes most of a second, mostly checking each row. Done at once on
 * the first question that needs them, that question and every one behind it
 * waits; so after a workspace opens the same reading runs a slice at a time,
 * letting other calls in between, and a question that needs it before it is
 * through finishes the rest at once. Both ways end in the same state.
 */
export interface SlicedWork {
  /** Handles up to `max` more rows (all that are left by default); true once every row has been handled. */
  step(max?: number): boolean;
}

/** Waits for the next turn of the event loop, so calls that came meanwhile are answered. */
export type Turn = () => Promise<void>;

export const nextTurn: Turn = () => new Promise((resolve) => setImmediate(resolve));

/** Rows checked in one slice: some 10-15 ms of work on a slow machine. */
export const SLICE_ROWS = 2_000;

export function overRows<T>(rows: CheckedRows<T>, each: (row: T) => void): SlicedWork {
  let next = 0;
  return {
    step(max = Infinity) {
      const end = Math.min(rows.length, next + max);
      while (next < end) each(rows.at(next++));
      return next >= rows.length;
    },
  };
}

/** Rows read a page at a time (`nextPage` gives an empty page at the end), each handled as by `overRows`. */
export function overPages<T>(nextPage: () => CheckedRows<T>, each: (row: T) => void): SlicedWork {
  let page: CheckedRows<T> | null = null;
  let next = 0;
  let done = false;
  return {
    step(max = Infinity) {
      let left = max;
      while (!done && left > 0) {
        if (page === null || next >= page.length) {
          page = nextPage();
          next = 0;
          if (page.length === 0) done = true;
          continue;
        }
        const end = Math.min(page.length, next + left);
        left -= end - next;
        while (next < end) each(page.at(next++));
      }
      return done;
    },
  };
}

/** One work after another. */
export function inSequence(...works: readonly SlicedWork[]): SlicedWork {
  return {
    step(max) {
      for (const work of works) if (!work.step(max)) return false;
      return true;
    },
  };
}

/**
 * Runs `work` a slice at a time, a turn between slices, for as long as
 * `wanted()` holds (checked after each turn: what was read may have gone
 * stale meanwhile). True when it ran to the end.
 */
export async function runInSlices(work: SlicedWork, turn: Turn, wanted: () => boolean): Promise<boolean> {
  for (;;) {
    await turn();
    if (!wanted()) return false;
    if (work.step(SLICE_ROWS)) return true;
  }
}
