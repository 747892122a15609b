import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemVariantsView } from '../../../src-shared/contract.ts';
import ItemVariants from '../../../src-renderer/src/components/ItemVariants.vue';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const NAMES: Record<string, string> = {
  '378;6': 'Team Captain',
  '378;5;u13': 'Burning Flames Team Captain',
  '378;11': 'Strange Team Captain',
};

/** What main answers: the SKU's name, and its quality and effect each as a list of SKUs. */
function variantsOf(sku: string): ItemVariantsView {
  return {
    sku,
    name: NAMES[sku] ?? sku,
    groups: [
      { part: 'quality', label: 'Quality', options: [{ label: 'Unique', sku: '378;6', chosen: sku === '378;6' }, { label: 'Strange', sku: '378;11', chosen: sku === '378;11' }] },
      { part: 'effect', label: 'Unusual effect', options: [{ label: 'None', sku: '378;6', chosen: sku === '378;6' }, { label: 'Burning Flames', sku: '378;5;u13', chosen: sku === '378;5;u13' }] },
    ],
  };
}

describe('what else an item comes as', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('offers each part as a list of SKUs, and the one chosen becomes the SKU bought', async () => {
    fake = installFakeApi({ 'items:variants': ({ sku }) => variantsOf(sku) });
    const wrapper = mount(ItemVariants, {
      props: { modelValue: '378;6', 'onUpdate:modelValue': (v: string) => void wrapper.setProps({ modelValue: v }) },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
    });
    await flushPromises();
    const box = wrapper.get('[data-testid=item-variants]');
    expect(box.get('legend').text()).toContain('Team Captain');
    const selects = box.findAll('select');
    expect(selects.map((s) => s.findAll('option').map((o) => o.text()))).toEqual([
      ['Unique · 378;6', 'Strange · 378;11'],
      ['None · 378;6', 'Burning Flames · 378;5;u13'],
    ]);
    await selects[1]?.setValue('378;5;u13');
    await flushPromises();
    expect(wrapper.props('modelValue')).toBe('378;5;u13');
    expect(fake.callsTo('items:variants')).toEqual([{ sku: '378;6' }, { sku: '378;5;u13' }]);
    expect(wrapper.get('[data-testid=item-variants] legend').text()).toContain('Burning Flames Team Captain');
  });

  it('asks nothing and shows nothing while no SKU is chosen', async () => {
    fake = installFakeApi({ 'items:variants': ({ sku }) => variantsOf(sku) });
    const wrapper = mount(ItemVariants, { props: { modelValue: '' }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await flushPromises();
    expect(wrapper.find('[data-testid=item-variants]').exists()).toBe(false);
    expect(fake.callsTo('items:variants')).toEqual([]);
  });
});
