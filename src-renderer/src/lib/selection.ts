/**
 * The selection model of the ledger tables, kept pure so that click,
 * shift-range, ctrl/cmd toggle and select-all behave the same in every table
 * and can be tested without a DOM. Keys are row keys (asset ID, SKU); states
 * are immutable so a view can compare them by identity.
 */
export interface SelectionState {
  readonly keys: ReadonlySet<string>;
  /** The row a shift-range starts from: the last row clicked without shift. */
  readonly anchor: string | null;
}

export interface ClickModifiers {
  /** Shift: select the range from the anchor to this row. */
  readonly range: boolean;
  /** Ctrl (Windows, Linux) or Cmd (macOS): add or remove one row. */
  readonly toggle: boolean;
}

export const emptySelection: SelectionState = Object.freeze({ keys: new Set<string>(), anchor: null });

/** What a click (or Space/Enter on a focused row) does to the selection. */
export function clickRow(
  state: SelectionState,
  key: string,
  ordered: readonly string[],
  mods: ClickModifiers,
): SelectionState {
  if (mods.range && state.anchor !== null) {
    const from = ordered.indexOf(state.anchor);
    const to = ordered.indexOf(key);
    if (from >= 0 && to >= 0) {
      const keys = mods.toggle ? new Set(state.keys) : new Set<string>();
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      for (let i = lo; i <= hi; i++) keys.add(ordered[i] as string);
      return { keys, anchor: state.anchor };
    }
  }
  if (mods.toggle) {
    const keys = new Set(state.keys);
    if (keys.has(key)) keys.delete(key);
    else keys.add(key);
    return { keys, anchor: key };
  }
  return { keys: new Set([key]), anchor: key };
}

/** Selects every row the filter shows, in one step (Ctrl/Cmd+A). */
export function selectAll(ordered: readonly string[]): SelectionState {
  return { keys: new Set(ordered), anchor: ordered[0] ?? null };
}

/** Drops keys whose rows are gone (deleted, or the ledger reloaded). */
export function pruneSelection(state: SelectionState, present: ReadonlySet<string>): SelectionState {
  let dropped = false;
  for (const key of state.keys) {
    if (!present.has(key)) {
      dropped = true;
      break;
    }
  }
  if (!dropped) return state;
  const keys = new Set([...state.keys].filter((key) => present.has(key)));
  const anchor = state.anchor !== null && present.has(state.anchor) ? state.anchor : null;
  return { keys, anchor };
}

/**
 * Whether two row lists hold the same keys in the same order: a list rebuilt
 * with new values for the same rows needs no prune. Keys of rows rebuilt
 * from the same ledger are the same strings, so this is a pass of pointer
 * compares.
 */
export function sameKeys(a: ReadonlyArray<{ readonly key: string }>, b: ReadonlyArray<{ readonly key: string }> | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]?.key !== b[i]?.key) return false;
  return true;
}

/** The selected keys in table order, as the bulk operations send them. */
export function selectedInOrder(state: SelectionState, ordered: readonly string[]): string[] {
  if (state.keys.size === 0) return [];
  return ordered.filter((key) => state.keys.has(key));
}
