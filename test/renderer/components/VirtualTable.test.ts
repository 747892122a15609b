import { mount } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import VirtualTable from '../../../src-renderer/src/components/VirtualTable.vue';

interface Row {
  id: string;
  n: number;
}
const rows: Row[] = Array.from({ length: 50_000 }, (_, i) => ({ id: `r${i}`, n: i }));

/** Mounted and measured: the rows are drawn once the table has read its height, right after it mounts. */
async function mountTable(list: readonly Row[] = rows, loaded = (_i: number) => true) {
  const wrapper = mount(VirtualTable, {
    props: {
      count: list.length,
      rowAt: (i: number) => (loaded(i) ? list[i] : undefined),
      rowKey: (r: unknown) => (r as Row).id,
      columns: '1fr',
      label: 'Test rows',
      rowHeight: 28,
      overscan: 5,
      fallbackHeight: 280,
    },
    slots: { row: ({ row }: { row: unknown }) => h('span', { role: 'gridcell' }, `row ${(row as Row).n}`) },
    attachTo: document.body,
  });
  await nextTick();
  return wrapper;
}

describe('VirtualTable', () => {
  it('renders only the rows in view plus the overscan, out of 50,000', async () => {
    const wrapper = await mountTable();
    const rendered = wrapper.findAll('[role=row][data-key]');
    // 280 px / 28 px = 10 rows in view, + 5 overscan below (none above at the top).
    expect(rendered).toHaveLength(15);
    expect(rendered[0]?.text()).toBe('row 0');
    expect(wrapper.get('[role=grid]').attributes('aria-rowcount')).toBe('50001');
    const spacer = wrapper.get('.vt-spacer').element as HTMLElement;
    expect(spacer.style.height).toBe(`${50_000 * 28}px`);
    wrapper.unmount();
  });

  it('renders the rows at the scroll position after scrolling', async () => {
    const wrapper = await mountTable();
    const scroller = wrapper.get('.vt-scroller');
    (scroller.element as HTMLElement).scrollTop = 28 * 25_000;
    await scroller.trigger('scroll');
    const texts = wrapper.findAll('[role=row][data-key]').map((r) => r.text());
    expect(texts[0]).toBe('row 24995');
    expect(texts).toContain('row 25000');
    expect(texts).toContain('row 25009');
    expect(texts.length).toBe(20);
    wrapper.unmount();
  });

  it('reports clicks with their modifiers as selection intents', async () => {
    const wrapper = await mountTable(rows.slice(0, 5));
    const cells = wrapper.findAll('[role=row][data-key]');
    await cells[1]?.trigger('click');
    await cells[3]?.trigger('click', { shiftKey: true });
    await cells[4]?.trigger('click', { ctrlKey: true });
    await cells[0]?.trigger('click', { metaKey: true });
    expect(wrapper.emitted('select')).toEqual([
      [1, 'r1', { range: false, toggle: false }],
      [3, 'r3', { range: true, toggle: false }],
      [4, 'r4', { range: false, toggle: true }],
      [0, 'r0', { range: false, toggle: true }],
    ]);
    wrapper.unmount();
  });

  it('works from the keyboard: arrows move, shift extends, space toggles, Ctrl/Cmd+A selects all, Enter edits', async () => {
    const wrapper = await mountTable(rows.slice(0, 5));
    const grid = wrapper.get('[role=grid]');
    await grid.trigger('keydown', { key: 'ArrowDown' });
    await grid.trigger('keydown', { key: 'ArrowDown', shiftKey: true });
    await grid.trigger('keydown', { key: ' ' });
    await grid.trigger('keydown', { key: 'a', ctrlKey: true });
    await grid.trigger('keydown', { key: 'Enter' });
    await grid.trigger('keydown', { key: 'Delete' });
    expect(wrapper.emitted('select')).toEqual([
      [1, 'r1', { range: false, toggle: false }],
      [2, 'r2', { range: true, toggle: false }],
      [2, 'r2', { range: false, toggle: true }],
    ]);
    expect(wrapper.emitted('selectAll')).toHaveLength(1);
    expect(wrapper.emitted('edit')).toEqual([['r2']]);
    expect(wrapper.emitted('remove')).toHaveLength(1);
    wrapper.unmount();
  });

  it('marks selected rows for assistive tech and styling', async () => {
    const wrapper = mount(
      defineComponent(() => () =>
        h(VirtualTable<Row>, {
          count: 3, rowAt: (i: number) => rows[i], rowKey: (r: Row) => r.id, columns: '1fr', label: 'x', isSelected: (k: string) => k === 'r1', fallbackHeight: 200,
        }),
      ),
    );
    await nextTick();
    const states = wrapper.findAll('[role=row][data-key]').map((r) => r.attributes('aria-selected'));
    expect(states).toEqual(['false', 'true', 'false']);
  });

  it('shows a quiet placeholder for rows whose page has not arrived, and says which rows are on screen', async () => {
    const wrapper = await mountTable(rows, (i) => i < 5);
    expect(wrapper.findAll('[role=row][data-key]')).toHaveLength(5);
    expect(wrapper.findAll('[role=row][aria-busy=true]')).toHaveLength(10);
    expect(wrapper.emitted('range')?.[0]).toEqual([0, 15]);
    const scroller = wrapper.get('.vt-scroller');
    (scroller.element as HTMLElement).scrollTop = 28 * 1_000;
    await scroller.trigger('scroll');
    expect(wrapper.emitted('range')?.at(-1)).toEqual([995, 1_015]);
    // A click on a row still loading selects nothing.
    await wrapper.get('[role=row][aria-busy=true]').trigger('click');
    expect(wrapper.emitted('select')).toBeUndefined();
    wrapper.unmount();
  });

  it('holds a Space pressed on a row still loading and ticks that row when it arrives, unless another key came first', async () => {
    let arrived = false;
    const wrapper = await mountTable(rows.slice(0, 5), () => arrived);
    const grid = wrapper.get('[role=grid]');
    await grid.trigger('keydown', { key: ' ' });
    expect(wrapper.emitted('select')).toBeUndefined();
    arrived = true;
    await wrapper.setProps({ version: 1 });
    expect(wrapper.emitted('select')).toEqual([[0, 'r0', { range: false, toggle: true }]]);
    // Held once only: the next page ticks nothing more.
    await wrapper.setProps({ version: 2 });
    expect(wrapper.emitted('select')).toHaveLength(1);

    // A Space followed by an arrow before the page came: the trader moved on, and the Space goes.
    arrived = false;
    await wrapper.setProps({ version: 3 });
    await grid.trigger('keydown', { key: ' ' });
    await grid.trigger('keydown', { key: 'ArrowDown' });
    arrived = true;
    await wrapper.setProps({ version: 4 });
    expect(wrapper.emitted('select')).toHaveLength(1);

    // A Space, then the focus taken to a control outside the grid (a filter typed into): it goes too.
    arrived = false;
    await wrapper.setProps({ version: 5 });
    const outside = document.createElement('input');
    document.body.append(outside);
    await grid.trigger('keydown', { key: ' ' });
    await grid.trigger('focusout', { relatedTarget: outside });
    arrived = true;
    await wrapper.setProps({ version: 6 });
    expect(wrapper.emitted('select')).toHaveLength(1);
    outside.remove();
    wrapper.unmount();
  });

  it('ticks nothing for a Space on an empty grid, also when rows come later', async () => {
    let list: Row[] = [];
    const wrapper = await mountTable([]);
    await wrapper.get('[role=grid]').trigger('keydown', { key: ' ' });
    list = rows.slice(0, 3);
    await wrapper.setProps({ count: list.length, rowAt: (i: number) => list[i], version: 1 });
    expect(wrapper.emitted('select')).toBeUndefined();
    wrapper.unmount();
  });

  it('leaves Enter and Space on a control inside the grid to it: a sort header or a star is operable from the keyboard', async () => {
    const wrapper = mount(VirtualTable, {
      props: { count: 3, rowAt: (i: number) => rows[i], rowKey: (r: unknown) => (r as Row).id, columns: '1fr', label: 'Test rows', fallbackHeight: 280 },
      slots: {
        header: () => h('span', { role: 'columnheader' }, [h('button', { type: 'button', class: 'sort' }, 'Price')]),
        row: ({ row }: { row: unknown }) => h('span', { role: 'gridcell' }, [h('button', { type: 'button', class: 'star' }, `star ${(row as Row).n}`)]),
      },
      attachTo: document.body,
    });
    await nextTick();
    await wrapper.get('button.sort').trigger('keydown', { key: 'Enter' });
    await wrapper.get('button.star').trigger('keydown', { key: ' ' });
    expect(wrapper.emitted('edit')).toBeUndefined();
    expect(wrapper.emitted('select')).toBeUndefined();
    // On the grid itself, the same keys are the table's.
    await wrapper.get('[role=grid]').trigger('keydown', { key: 'Enter' });
    expect(wrapper.emitted('edit')).toEqual([['r0']]);
    wrapper.unmount();
  });

  it('moves the focus with the active row: the grid is one tab stop, and the row the arrows reach is the one a screen reader reads', async () => {
    const wrapper = await mountTable(rows.slice(0, 5));
    const grid = wrapper.get('[role=grid]');
    const rowEls = () => wrapper.findAll('[role=row][data-key]');
    expect(rowEls().map((r) => r.attributes('tabindex'))).toEqual(['0', '-1', '-1', '-1', '-1']);
    (grid.element as HTMLElement).focus();
    expect(document.activeElement).toBe(rowEls()[0]?.element);
    await rowEls()[0]?.trigger('keydown', { key: 'ArrowDown' });
    await nextTick();
    expect(document.activeElement).toBe(rowEls()[1]?.element);
    expect(rowEls().map((r) => r.attributes('tabindex'))).toEqual(['-1', '0', '-1', '-1', '-1']);
    wrapper.unmount();
  });
  it('keeps the focus on the active row when a new page redraws the rows (a sort), rather than dropping it to the page', async () => {
    const list = rows.slice(0, 5);
    const wrapper = await mountTable(list);
    (wrapper.get('[role=grid]').element as HTMLElement).focus();
    expect(document.activeElement?.getAttribute('data-key')).toBe('r0');
    // Sorted the other way: the row that had the focus goes out, another takes its place.
    const sorted = [...rows.slice(5, 10)];
    await wrapper.setProps({ rowAt: (i: number) => sorted[i], version: 1 });
    await nextTick();
    expect(document.activeElement?.getAttribute('data-key')).toBe('r5');
    expect(document.activeElement?.getAttribute('tabindex')).toBe('0');
    wrapper.unmount();
  });

  it('reads its height once it is in the document, before drawing a row, and follows resizes', async () => {
    const observed: Array<() => void> = [];
    const Observer = vi.fn(function (this: unknown, callback: () => void) {
      observed.push(callback);
      return { observe: () => undefined, disconnect: () => undefined };
    });
    vi.stubGlobal('ResizeObserver', Observer);
    let height = 336;
    const drawnWhenRead: number[] = [];
    const clientHeight = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      drawnWhenRead.push(this.querySelectorAll('[role=row]').length);
      return height;
    });
    try {
      const wrapper = await mountTable();
      await nextTick();
      // Read once, with no row drawn yet (not the fallback's 15 rows, drawn again when measured).
      expect(drawnWhenRead).toEqual([0]);
      // 336 px / 28 px = 12 rows in view, + 5 overscan below.
      expect(wrapper.findAll('[role=row][data-key]')).toHaveLength(17);
      height = 560;
      for (const callback of observed) callback();
      await nextTick();
      // 560 px / 28 px = 20 rows in view, + 5 overscan below.
      expect(wrapper.findAll('[role=row][data-key]')).toHaveLength(25);
      wrapper.unmount();
    } finally {
      clientHeight.mockRestore();
      vi.unstubAllGlobals();
    }
  });
});

