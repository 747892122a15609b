import { nextTick, ref, shallowRef, watch, type Ref, type WatchSource } from 'vue';
import type { ClickModifiers } from '../lib/table-selection.ts';

/** What a grid's clicks and keys ask of its parent: the selection is the parent's. */
export interface GridIntents {
  select(index: number, key: string, mods: ClickModifiers): void;
  selectAll(): void;
  edit(key: string): void;
  remove(): void;
}

export interface GridKeysOptions<T> {
  /** The grid's element; it holds the focus only while its rows are loading. */
  readonly root: Readonly<Ref<HTMLElement | null>>;
  /** Each drawn row's id is `${uid}-${index}`. */
  readonly uid: string;
  readonly rows: {
    readonly count: number;
    readonly version: number;
    readonly checklist: boolean;
    rowAt(index: number): T | undefined;
    rowKey(row: T): string;
  };
  /** The rows drawn: when they are drawn again, a focus that fell with its row goes back to the active one. */
  readonly drawn: WatchSource<unknown>;
  /** How many rows PageUp and PageDown move. */
  pageRows(): number;
  scrollToIndex(index: number): void;
  readonly intents: GridIntents;
}

/**
 * A grid's active row and what the keys do with it: arrows, Page Up/Down,
 * Home and End move it (Shift extends the selection, Ctrl/Cmd moves the
 * focus only), Space toggles, Ctrl/Cmd+A selects all, Enter edits, Delete
 * removes. In a checklist, a click or Space ticks one row more or less and
 * the arrows move the focus without changing what is ticked.
 *
 * Focus follows the active row (a roving tabindex): the active row is the
 * grid's one tab stop and takes the focus as the arrows move, so a screen
 * reader reads the row and the scrolling region holds what the keyboard
 * reaches. Focusing the grid itself hands the focus to its active row.
 */
export function useGridKeys<T>(options: GridKeysOptions<T>) {
  const { root, uid, rows, intents } = options;
  const activeIndex = ref(0);

  watch(
    () => rows.count,
    (n) => {
      if (activeIndex.value >= n) activeIndex.value = Math.max(0, n - 1);
    },
  );

  // A page that arrives redraws the rows by key (a sort, a filter): the row that had the focus may go with it,
  // and the focus would fall to the page. It stays with the active row, or the grid while that row is loading.
  watch(
    options.drawn,
    () => {
      const grid = root.value;
      if (!grid?.contains(document.activeElement)) return;
      void nextTick(() => {
        // Only a focus that fell: one the trader moved elsewhere meanwhile stays where it went.
        if (document.activeElement !== null && document.activeElement !== document.body) return;
        (activeRow() ?? grid).focus({ preventScroll: true });
      });
    },
    { flush: 'pre' },
  );

  /** The active row's element when it is drawn and loaded (a placeholder takes no focus). */
  function activeRow(): HTMLElement | null {
    return root.value?.querySelector<HTMLElement>(`#${uid}-${activeIndex.value}[tabindex]`) ?? null;
  }

  /** Moves the focus to the active row, once it is rendered, when the focus is in the grid. */
  async function focusActive(): Promise<void> {
    await nextTick();
    const grid = root.value;
    if (!grid || !grid.contains(document.activeElement)) return;
    activeRow()?.focus({ preventScroll: true });
  }

  function keyAt(index: number): string | null {
    void rows.version;
    const row = rows.rowAt(index);
    return row === undefined ? null : rows.rowKey(row);
  }

  // A Space pressed on a row whose page is on its way (a filter just changed) is held and ticks that row
  // when it arrives, rather than being lost: the grid had the focus and took the key. Any other key,
  // a click, or the focus taken elsewhere lets it go.
  const heldSpace = shallowRef<{ index: number; shiftKey: boolean } | null>(null);
  watch(
    () => (heldSpace.value === null ? null : keyAt(heldSpace.value.index)),
    (key) => {
      const held = heldSpace.value;
      if (held === null || key === null) return;
      heldSpace.value = null;
      if (held.index === activeIndex.value) space(held.index, key, held.shiftKey);
    },
  );

  function space(index: number, key: string, shiftKey: boolean): void {
    intents.select(index, key, { range: shiftKey, toggle: rows.checklist || !shiftKey });
  }

  function onRowClick(index: number, key: string, e: MouseEvent): void {
    heldSpace.value = null;
    activeIndex.value = index;
    if (rows.rowAt(index) === undefined) return;
    intents.select(index, key, { range: e.shiftKey, toggle: rows.checklist || e.ctrlKey || e.metaKey });
  }

  /** The trader took the focus elsewhere (not a row redrawn from under it): a held Space goes. */
  function onGridFocusOut(e: FocusEvent): void {
    if (e.relatedTarget instanceof Node && !root.value?.contains(e.relatedTarget)) heldSpace.value = null;
  }

  /** The grid itself took the focus (Tab into an empty one, or a call to focus()): hand it to the active row. */
  function onGridFocus(e: FocusEvent): void {
    if (e.target !== root.value) return;
    activeRow()?.focus({ preventScroll: true });
  }

  function onKeydown(e: KeyboardEvent): void {
    // Keys typed into an inline editor, or pressed on a control in a cell or header (a sort button, the promote star), belong to it.
    if (e.target instanceof HTMLElement && e.target !== root.value && e.target.closest('input, select, textarea, button, a') !== null) return;
    heldSpace.value = null;
    const n = rows.count;
    const mod = e.ctrlKey || e.metaKey;
    const page = options.pageRows();
    let next: number | null = null;
    switch (e.key) {
      case 'ArrowDown': next = activeIndex.value + 1; break;
      case 'ArrowUp': next = activeIndex.value - 1; break;
      case 'PageDown': next = activeIndex.value + page; break;
      case 'PageUp': next = activeIndex.value - page; break;
      case 'Home': next = 0; break;
      case 'End': next = n - 1; break;
      case ' ': {
        const key = keyAt(activeIndex.value);
        if (key !== null) space(activeIndex.value, key, e.shiftKey);
        // Held only for a row that is there to come: an empty grid's Space ticks nothing, now or later.
        else if (activeIndex.value < rows.count) heldSpace.value = { index: activeIndex.value, shiftKey: e.shiftKey };
        e.preventDefault();
        return;
      }
      case 'Enter': {
        const key = keyAt(activeIndex.value);
        if (key !== null && !mod) intents.edit(key);
        if (!mod) e.preventDefault();
        return;
      }
      case 'Delete':
        intents.remove();
        e.preventDefault();
        return;
      default:
        if (mod && !e.altKey && e.key.toLowerCase() === 'a') {
          intents.selectAll();
          e.preventDefault();
          // Ctrl+A must not also reach the desk-wide shortcut handler.
          e.stopPropagation();
        }
        return;
    }
    e.preventDefault();
    if (n === 0) return;
    activeIndex.value = Math.min(n - 1, Math.max(0, next));
    options.scrollToIndex(activeIndex.value);
    void focusActive();
    const key = keyAt(activeIndex.value);
    // Ctrl/Cmd+arrow moves the focus ring only, so Space can toggle rows apart; so does every arrow in a checklist,
    // where Shift+arrow ticks the range as it grows.
    if (key === null || mod || (rows.checklist && !e.shiftKey)) return;
    intents.select(activeIndex.value, key, { range: e.shiftKey, toggle: rows.checklist });
  }

  return { activeIndex, onRowClick, onGridFocus, onGridFocusOut, onKeydown };
}
