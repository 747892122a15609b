import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, shallowRef, type ShallowRef } from 'vue';
import { useShownCosts, type ShownCost } from '../../../src-renderer/src/composables/shown-costs.ts';
import { flush, installFakeApi, type FakeApi } from '../fake-api.ts';

/** The costs a table shows: a scroll asks only for SKUs not yet known; main's word of a change asks again. */

let api: FakeApi;
let unit = 100;
beforeEach(() => {
  setActivePinia(createPinia());
  unit = 100;
  api = installFakeApi({
    'costs:of': ({ skus }) => ({ costs: skus.map((sku) => ({ sku, unitCost: unit, held: 1 })) }),
  });
});
afterEach(() => api.uninstall());

function table() {
  const loaded = shallowRef<string[]>([]);
  const version = shallowRef(0);
  const rows = { get version() { return version.value; }, loadedRows: () => loaded.value.map((sku) => ({ sku })) };
  let costs!: ShallowRef<ReadonlyMap<string, ShownCost>>;
  mount(defineComponent({ setup() { costs = useShownCosts(() => rows); return () => h('p'); } }));
  const show = async (skus: string[]) => {
    loaded.value = skus;
    version.value += 1;
    await flush();
  };
  return { show, costs: () => costs.value };
}

const asked = () => api.callsTo('costs:of').map((input) => (input as { skus: string[] }).skus);

describe('useShownCosts', () => {
  it('asks for the SKUs of new rows only, as pages load', async () => {
    const t = table();
    await t.show(['a', 'b']);
    await t.show(['a', 'b', 'c']);
    await t.show(['a', 'b', 'c']);
    expect(asked()).toEqual([['a', 'b'], ['c']]);
    expect(t.costs().get('c')).toEqual({ unitCost: 100, held: 1 });
  });

  it('asks again for every loaded SKU when main says pricing changed, and shows the new costs', async () => {
    const t = table();
    await t.show(['a', 'b']);
    unit = 250;
    api.emit('pricing:changed', { stamp: 2 });
    await flush();
    expect(asked()).toEqual([['a', 'b'], ['a', 'b']]);
    expect(t.costs().get('a')?.unitCost).toBe(250);
  });
});
