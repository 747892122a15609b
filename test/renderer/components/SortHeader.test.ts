import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import SortHeader from '../../../src-renderer/src/components/SortHeader.vue';

const alt = { column: 'newPrice' as const, label: 'new', title: 'Sort by the price after the draft' };

describe('SortHeader', () => {
  it('offers the price after the draft as a second order of the Price column, and says which one sorts', async () => {
    const w = mount(SortHeader, { props: { column: 'price', label: 'Price', sort: null, alt } });
    const [own, after] = w.findAll('button');
    expect(after?.attributes('aria-label')).toBe('Sort by the price after the draft');
    await after?.trigger('click');
    await own?.trigger('click');
    expect(w.emitted('sort')).toEqual([['newPrice'], ['price']]);
    expect(w.attributes('aria-sort')).toBe('none');
    await w.setProps({ sort: { column: 'newPrice', dir: 'desc' } });
    expect(w.attributes('aria-sort')).toBe('descending');
    expect(after?.text()).toContain('▼');
    expect(own?.text()).not.toContain('▼');
    await w.setProps({ sort: { column: 'price', dir: 'asc' } });
    expect(w.attributes('aria-sort')).toBe('ascending');
    expect(own?.text()).toContain('▲');
  });

  it('is one button when the column has one order', () => {
    const w = mount(SortHeader, { props: { column: 'note', label: 'Note', sort: null } });
    expect(w.findAll('button')).toHaveLength(1);
  });
});
