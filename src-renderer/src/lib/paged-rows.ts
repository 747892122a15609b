import { shallowRef, triggerRef, type ShallowRef } from 'vue';

/**
 * Rows of a long table as main answers them: one page at a time, for the
 * part of the table on screen. Nothing is derived here; a page is shown as
 * it came. A refresh asks again for the pages on screen and swaps them in
 * together when they have all arrived, so the table never flashes empty and
 * never mixes rows of two states of main on screen. The margin around them
 * (kept for scrolling) is asked for after the swap: the screen does not wait
 * for rows nobody sees yet.
 */
export interface Page<T> {
  readonly total: number;
  readonly rows: readonly T[];
}

export interface PagedRows<T> {
  /** Rows matching, as of the last answer. */
  readonly total: ShallowRef<number>;
  /** Bumped whenever rows on screen change: views read it to re-render. */
  readonly version: ShallowRef<number>;
  /** Whether an answer has ever arrived (the table shows "Loading…" before). */
  readonly loaded: ShallowRef<boolean>;
  rowAt(index: number): T | undefined;
  /** The rows now in memory, in order (the first page first). */
  loadedRows(): T[];
  /** The part of the table on screen; pages missing around it are asked for. */
  show(start: number, end: number): void;
  /** Asks again for the pages on screen (main's state moved on, or the query changed). */
  refresh(): Promise<void>;
}

export interface PagedRowsOptions<T> {
  pageSize: number;
  fetch(offset: number, limit: number): Promise<Page<T>>;
  /** Told of a failed fetch (the rows shown stay). */
  onError?(error: unknown): void;
}

export function createPagedRows<T>(options: PagedRowsOptions<T>): PagedRows<T> {
  const { pageSize } = options;
  const total = shallowRef(0);
  const version = shallowRef(0);
  const loaded = shallowRef(false);
  let pages = new Map<number, readonly T[]>();
  let visible: [number, number] = [0, pageSize];
  /** Bumped by every refresh: a page fetched for an older generation is dropped. */
  let generation = 0;
  const inFlight = new Set<number>();
  let refreshing: Promise<void> | null = null;
  let again = false;

  const changed = () => {
    version.value += 1;
    triggerRef(version);
  };

  /** Pages covering the visible rows, with `margin` pages each side. */
  function wanted(margin = 1): number[] {
    const first = Math.max(0, Math.floor(visible[0] / pageSize) - margin);
    const last = Math.floor(Math.max(visible[0], visible[1] - 1) / pageSize) + margin;
    const out: number[] = [];
    for (let p = first; p <= last; p++) if (p === 0 || p * pageSize < total.value) out.push(p);
    return out;
  }

  /**
   * How far page `p` is from the middle of the rows shown, in rows (0: it holds the middle). The rows
   * shown reach past the viewport by the table's overscan on both sides, so their middle is the
   * viewport's: the page that holds it is the one the trader sees.
   */
  function distance(p: number): number {
    const middle = Math.floor((visible[0] + Math.max(visible[0], visible[1] - 1)) / 2);
    return Math.max(0, p * pageSize - middle, middle - ((p + 1) * pageSize - 1));
  }

  async function fetchMissing(): Promise<void> {
    const gen = generation;
    // The pages on screen are asked for first, the one under the viewport before those the overscan
    // reaches into: main answers in the order asked, so a page asked before it (the margin above on a
    // scroll down, or the overscan's few rows of the page above) would hold back what the trader sees.
    const onScreen = new Set(wanted(0));
    const missing = wanted().filter((p) => !pages.has(p) && !inFlight.has(p))
      .sort((a, b) => Number(onScreen.has(b)) - Number(onScreen.has(a)) || distance(a) - distance(b) || a - b);
    await Promise.all(missing.map(async (p) => {
      inFlight.add(p);
      try {
        const page = await options.fetch(p * pageSize, pageSize);
        if (gen !== generation) return;
        pages.set(p, page.rows);
        total.value = page.total;
        loaded.value = true;
        // A page of the margin around the view changes nothing on screen: the rows in view are not
        // drawn again for it (scrolling to it reads it then).
        if (p * pageSize < visible[1] && (p + 1) * pageSize > visible[0]) changed();
      } catch (error) {
        options.onError?.(error);
      } finally {
        inFlight.delete(p);
      }
    }));
  }

  async function refreshOnce(): Promise<void> {
    generation += 1;
    const gen = generation;
    const want = wanted(0);
    const answers = await Promise.all(want.map((p) => options.fetch(p * pageSize, pageSize)));
    if (gen !== generation) return;
    const next = new Map<number, readonly T[]>();
    want.forEach((p, i) => next.set(p, (answers[i] as Page<T>).rows));
    pages = next;
    total.value = answers.at(-1)?.total ?? 0;
    loaded.value = true;
    changed();
    // Then the margin, and what a grown total brings on screen; a later refresh drops what is stale.
    // With another refresh already asked for (the sort turned again), the margin waits for it: asked
    // now, it would be read for the new question under the old one, dropped, and answered before the
    // rows the trader is waiting for.
    if (!again) void fetchMissing();
  }

  return {
    total,
    version,
    loaded,
    rowAt(index) {
      return pages.get(Math.floor(index / pageSize))?.[index % pageSize];
    },
    loadedRows() {
      return [...pages.keys()].sort((a, b) => a - b).flatMap((p) => [...(pages.get(p) ?? [])]);
    },
    show(start, end) {
      visible = [start, end];
      // A refresh under way fetches what is then on screen when it ends.
      if (!refreshing) void fetchMissing();
    },
    refresh() {
      if (refreshing) {
        again = true;
        return refreshing;
      }
      const run = async () => {
        do {
          again = false;
          try {
            await refreshOnce();
          } catch (error) {
            options.onError?.(error);
          }
        } while (again);
      };
      refreshing = run().finally(() => (refreshing = null));
      return refreshing;
    },
  };
}
