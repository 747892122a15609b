import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CsvImportPanel from '../../../src-renderer/src/components/CsvImportPanel.vue';
import { deskHandlers } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

describe('CSV import panel', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('counts rows and refused lines in words that agree with the number, and asks for prices in dollars', async () => {
    fake = installFakeApi(deskHandlers({
      'drafts:importCsv': () => ({ token: 't', kind: 'buyOrders', validCount: 1, errors: [{ line: 3, reason: 'price: must be an amount in dollars, e.g. 4.50' }], errorCount: 1 }),
    }));
    const wrapper = mount(CsvImportPanel, { props: { kind: 'buyOrders' }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    expect(wrapper.text()).toContain('price (in dollars, e.g. 4.50)');
    expect(wrapper.text()).toContain('or the item’s name');
    await wrapper.get('textarea').setValue('sku,price,quantity\n5021;6,4.50,1\n');
    await wrapper.findAll('button').find((b) => b.text() === 'Check')?.trigger('click');
    await flushPromises();
    const text = wrapper.text();
    expect(text).toContain('1 row ready');
    expect(text).toContain('1 line refused');
    expect(text).toContain('Accept 1 row');
    expect(badWording(text)).toBeNull();
  });
});
