import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemSearch } from '../../../src-shared/contract.ts';
import ItemNameCombobox from '../../../src-renderer/src/components/ItemNameCombobox.vue';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const item = { name: 'Mann Co. Supply Crate Key', known: true, quality: 'Unique', color: '#FFD700', effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true };
const crates = [
  { sku: '5022;6', name: 'Mann Co. Supply Crate', detail: 'Supply Crate 1' },
  { sku: '5041;6', name: 'Mann Co. Supply Crate', detail: 'Supply Crate 2' },
];

function answer(text: string): ItemSearch {
  if (text === 'Mann Co Suply Crate Key') {
    return {
      text,
      resolved: { ok: false, reason: 'no_such_item', message: 'No item is called that.', candidates: [] },
      matches: [],
      nearMiss: { name: 'Mann Co. Supply Crate Key', sku: '5021;6' },
    };
  }
  if (text === 'Mann Co. Supply Crate Key') {
    return { text, resolved: { ok: true, sku: '5021;6', item }, matches: [{ name: text, sku: '5021;6', candidates: [] }], nearMiss: null };
  }
  return {
    text,
    resolved: { ok: false, reason: 'ambiguous', message: 'several', candidates: crates },
    matches: [{ name: 'Mann Co. Supply Crate', sku: null, candidates: crates }, { name: 'Mann Co. Supply Crate Key', sku: '5021;6', candidates: [] }],
    nearMiss: null,
  };
}

describe('the item name field', () => {
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    vi.useRealTimers();
  });

  async function typed(text: string) {
    vi.useFakeTimers();
    fake = installFakeApi({ 'items:search': ({ text: t }) => answer(t) });
    const wrapper = mount(ItemNameCombobox, {
      props: { modelValue: '', 'onUpdate:modelValue': (v: string) => void wrapper.setProps({ modelValue: v }), label: 'Item' },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
      attachTo: document.body,
    });
    const input = wrapper.get('input[role=combobox]');
    await input.setValue(text);
    await vi.advanceTimersByTimeAsync(200);
    await flushPromises();
    return { wrapper, input };
  }

  it('lists the names with their SKUs, moves with the arrows and takes one with Enter', async () => {
    const { wrapper, input } = await typed('Mann Co. Supply Crate');
    expect(input.attributes('aria-expanded')).toBe('true');
    expect(wrapper.findAll('[role=option]').map((o) => o.text())).toEqual(['Mann Co. Supply Crate2 items', 'Mann Co. Supply Crate Key5021;6']);
    await input.trigger('keydown', { key: 'ArrowDown' });
    await input.trigger('keydown', { key: 'ArrowDown' });
    expect(input.attributes('aria-activedescendant')).toMatch(/-opt-1$/);
    await input.trigger('keydown', { key: 'Enter' });
    expect((input.element as HTMLInputElement).value).toBe('Mann Co. Supply Crate Key');
    expect(wrapper.props('modelValue')).toBe('5021;6');
    expect(wrapper.get('[data-testid=item-resolution]').text()).toBe('Resolves to 5021;6 (Mann Co. Supply Crate Key)');
    wrapper.unmount();
  });

  it('asks which item a shared name means, and takes the one chosen', async () => {
    const { wrapper } = await typed('Mann Co. Supply Crate');
    expect(wrapper.get('[data-testid=item-resolution]').text()).toContain('which one?');
    expect(wrapper.props('modelValue')).toBe('');
    const radios = wrapper.findAll('input[type=radio]');
    expect(radios).toHaveLength(2);
    await radios[1]?.setValue(true);
    expect(wrapper.props('modelValue')).toBe('5041;6');
    wrapper.unmount();
  });

  it('closes its list on Escape without letting the key close the panel', async () => {
    const { wrapper, input } = await typed('Mann Co. Supply Crate');
    const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    input.element.dispatchEvent(event);
    await flushPromises();
    expect(event.defaultPrevented).toBe(true);
    expect(input.attributes('aria-expanded')).toBe('false');
    wrapper.unmount();
  });

  it('takes a SKU as it is, without asking main', async () => {
    const { wrapper } = await typed('5021;6');
    expect(wrapper.props('modelValue')).toBe('5021;6');
    // Only the warm-up asked when the field opened, nothing for the SKU.
    expect(fake.callsTo('items:search')).toEqual([{ text: '', limit: 1 }]);
    wrapper.unmount();
  });

  it('offers the name a mistyped one is near as "did you mean", and takes it with Enter', async () => {
    const { wrapper, input } = await typed('Mann Co Suply Crate Key');
    expect(wrapper.props('modelValue')).toBe('');
    expect(wrapper.get('[data-testid=item-resolution]').text()).toContain('Did you mean “Mann Co. Supply Crate Key”?');
    expect(wrapper.findAll('[role=option]').map((o) => o.text())).toEqual(['Did you mean Mann Co. Supply Crate Key?5021;6']);
    await input.trigger('keydown', { key: 'ArrowDown' });
    await input.trigger('keydown', { key: 'Enter' });
    expect((input.element as HTMLInputElement).value).toBe('Mann Co. Supply Crate Key');
    expect(wrapper.props('modelValue')).toBe('5021;6');
    wrapper.unmount();
  });
});
