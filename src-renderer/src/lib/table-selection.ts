import type { LedgerFilter } from '../../../src-shared/contract.ts';

/**
 * The selection of a ledger table, as a value main understands: explicit
 * keys, or "every row matching this filter, minus these keys" (select all,
 * then untick a few). Selecting 50,000 rows is then a few bytes, and the
 * bulk edit, the delete and the revert are computed by main from it.
 * Immutable: a view compares selections by identity. `F` is the table's
 * filter (the ledger's by default; the inventory picker has its own).
 */
export type TableSelection<F = LedgerFilter> =
  | { readonly kind: 'keys'; readonly keys: ReadonlySet<string>; readonly anchor: number | null }
  | { readonly kind: 'all'; readonly filter: F; readonly except: ReadonlySet<string>; readonly anchor: number | null };

/** A selection as the bridge carries it. */
export type SelectionValue<F = LedgerFilter> = { ids: string[] } | { filter: F; except: string[] };

export interface ClickModifiers {
  /** Shift: select the range from the anchor to this row. */
  readonly range: boolean;
  /** Ctrl (Windows, Linux) or Cmd (macOS): add or remove one row. */
  readonly toggle: boolean;
}

export const emptySelection: TableSelection<never> = Object.freeze({ kind: 'keys', keys: new Set<string>(), anchor: null });

export function isSelected<F>(s: TableSelection<F>, key: string): boolean {
  return s.kind === 'keys' ? s.keys.has(key) : !s.except.has(key);
}

/** How many rows are selected, given how many match the filter now. */
export function countSelected<F>(s: TableSelection<F>, matching: number): number {
  return s.kind === 'keys' ? s.keys.size : Math.max(0, matching - s.except.size);
}

export function selectAllMatching<F extends object = LedgerFilter>(filter: NoInfer<F>): TableSelection<F> {
  return { kind: 'all', filter: { ...filter }, except: new Set(), anchor: null };
}

/** The selection as the bridge carries it. */
export function selectionValue<F>(s: TableSelection<F>): SelectionValue<F> {
  return s.kind === 'keys' ? { ids: [...s.keys] } : { filter: s.filter, except: [...s.except] };
}

/**
 * What a click (or Space/Enter on a focused row) does. A shift-click needs
 * the keys of the rows between the anchor and this one, which `keysBetween`
 * gives (from the rows on screen, or by asking main for the others).
 */
export async function clickSelection<F>(
  s: TableSelection<F>,
  index: number,
  key: string,
  mods: ClickModifiers,
  keysBetween: (from: number, to: number) => Promise<string[]>,
): Promise<TableSelection<F>> {
  if (mods.range && s.anchor !== null) {
    const [from, to] = s.anchor <= index ? [s.anchor, index] : [index, s.anchor];
    const range = await keysBetween(from, to);
    if (s.kind === 'all' && mods.toggle) {
      const except = new Set(s.except);
      for (const k of range) except.delete(k);
      return { ...s, except };
    }
    const keys = mods.toggle && s.kind === 'keys' ? new Set(s.keys) : new Set<string>();
    for (const k of range) keys.add(k);
    return { kind: 'keys', keys, anchor: s.anchor };
  }
  if (mods.toggle) {
    if (s.kind === 'all') {
      const except = new Set(s.except);
      if (except.has(key)) except.delete(key);
      else except.add(key);
      return { ...s, except, anchor: index };
    }
    const keys = new Set(s.keys);
    if (keys.has(key)) keys.delete(key);
    else keys.add(key);
    return { kind: 'keys', keys, anchor: index };
  }
  return { kind: 'keys', keys: new Set([key]), anchor: index };
}
