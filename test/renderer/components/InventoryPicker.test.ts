import { createTestingPinia } from '@pinia/testing';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_UNDERCUTS, type UndercutFindings } from '../../../src-shared/price-guard.ts';
import type { InventoryItemView, InventoryState } from '../../../src-shared/contract.ts';
import InventoryPicker from '../../../src-renderer/src/components/InventoryPicker.vue';
import TypedAssetIds from '../../../src-renderer/src/components/TypedAssetIds.vue';
import { deskHandlers, LINKED, MAIN } from '../desk-data.ts';
import { installFakeApi, type FakeApi, type Handlers } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';

/**
 * The picker shows what main answers and sends what the trader chose: the
 * filters as a query, the ticks as a selection, the formula as a pricing; an
 * inventory that could not be read is a sentence; typed IDs are flagged.
 */

const item = (i: number, over: Partial<InventoryItemView> = {}): InventoryItemView => ({
  key: String(11_000_000_000 + i), account: MAIN, sku: `205;11;kt-${1 + (i % 3)}`, tradable: true, listing: null, drafted: null,
  item: { name: `Strange Killstreak Rocket Launcher ${i}`, known: true, quality: 'Strange', color: '#CF6A32', effect: null, killstreak: 'Killstreak', wear: null, australium: false, festivized: false, craftable: true },
  ...over,
});

const state = (over: Partial<InventoryState> = {}): InventoryState => ({
  stamp: 2,
  accounts: [
    { account: MAIN, phase: 'done', readAt: Date.now() - 90_000, items: 30, progress: null, nextAt: null, problem: null },
    { account: LINKED, phase: 'failed', readAt: null, items: 0, progress: null, nextAt: null, problem: { kind: 'private', message: 'Steam says this inventory is private, so the desk cannot see its items.', at: 1 } },
  ],
  facets: { qualities: [{ id: 11, name: 'Strange', count: 30 }, { id: 5, name: 'Unusual', count: 2 }], effects: [{ id: 13, name: 'Burning Flames', count: 2 }], killstreaks: [], wears: [] },
  ...over,
});

describe('inventory picker', () => {
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    vi.useRealTimers();
  });

  let undercuts: UndercutFindings = NO_UNDERCUTS;
  afterEach(() => void (undercuts = NO_UNDERCUTS));

  const mountPicker = async (rows: InventoryItemView[], over: Handlers = {}) => {
    fake = installFakeApi(deskHandlers({
      'inventory:state': () => state(),
      'inventory:page': ({ offset = 0, limit = 100 }) => ({ stamp: 2, offset, total: rows.length, all: rows.length, rows: rows.slice(offset, offset + limit) }),
      'inventory:preview': ({ selection }) => ({
        selected: 'ids' in selection ? selection.ids.length : 0, priced: 'ids' in selection ? selection.ids.length : 0, leftOut: [],
        samples: [{ key: rows[0]?.key ?? '', name: rows[0]?.item.name ?? '', base: 1_000, price: 999 }], minPrice: 999, maxPrice: 1_299, undercuts,
      }),
      'inventory:draft': ({ selection }) => ({
        selected: 2, priced: 2, leftOut: [], samples: [], minPrice: 999, maxPrice: 999, undercuts: NO_UNDERCUTS, draftId: 'd1', added: 'ids' in selection ? selection.ids.length : 0, replaced: 0, errors: [], errorCount: 0,
      }),
      ...over,
    }));
    const wrapper = mount(InventoryPicker, {
      props: { accounts: [MAIN, LINKED], mainAccount: MAIN },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
      attachTo: document.body,
    });
    await flushPromises();
    return wrapper;
  };

  it('asks main to read what is old when it opens, and says a private inventory in a sentence', async () => {
    const wrapper = await mountPicker([item(1)]);
    expect(fake.callsTo('inventory:state')[0]).toEqual({ ensureFresh: true });
    const text = wrapper.text();
    expect(text).toContain('Main account: 30 items, read 1 min ago.');
    expect(text).toContain('Steam says this inventory is private');
    expect(badWording(text)).toBeNull();
    wrapper.unmount();
  });

  it('sends the filters as a query, the ticks as asset IDs, and the formula as a pricing', async () => {
    const rows = [item(1), item(2), item(3)];
    const wrapper = await mountPicker(rows);
    await wrapper.get('select[aria-label="Quality"]').setValue('11');
    await flushPromises();
    expect(fake.callsTo('inventory:page').at(-1)).toMatchObject({ filter: { quality: 11 } });

    // A click ticks one more; Shift+click ticks the range from it.
    const rowEls = () => wrapper.findAll('[role=row][data-key]');
    await rowEls()[0]?.trigger('click');
    await rowEls()[2]?.trigger('click', { shiftKey: true });
    await flushPromises();
    expect(wrapper.text()).toContain('3 items ticked of 3');

    await wrapper.get('select[aria-label="Price from"]').setValue('listing');
    await wrapper.get('input[aria-label="Percent of the reference price"]').setValue('95');
    await wrapper.get('select[aria-label="Round to"]').setValue('ninety-nine');
    await new Promise((r) => setTimeout(r, 200));
    await flushPromises();
    expect(fake.callsTo('inventory:preview').at(-1)).toEqual({
      selection: { ids: rows.map((r) => r.key) },
      pricing: { from: 'listing', cents: null, percent: 95, rounding: 'nearest', step: { size: 100, offset: 99 } },
    });
    expect(wrapper.get('[data-testid=inventory-preview]').text()).toContain('$10.00 → $9.99');
    await wrapper.get('[data-testid=inventory-add]').trigger('click');
    await flushPromises();
    expect(fake.callsTo('inventory:draft')).toEqual([{
      selection: { ids: rows.map((r) => r.key) },
      pricing: { from: 'listing', cents: null, percent: 95, rounding: 'nearest', step: { size: 100, offset: 99 } },
      extras: { promoted: 0 },
    }]);
    expect(wrapper.emitted('done')).toEqual([[3]]);
    wrapper.unmount();
  });

  it('says before adding which items are priced far under what their item fetches', async () => {
    undercuts = { count: 2, worst: { key: 'a', sku: '378;5;u13', price: 500, reference: { source: 'sale', cents: 90_000 } } };
    const rows = [item(1), item(2)];
    const wrapper = await mountPicker(rows);
    await wrapper.findAll('[role=row][data-key]')[0]?.trigger('click');
    await wrapper.findAll('[role=row][data-key]')[1]?.trigger('click', { shiftKey: true });
    await wrapper.get('select[aria-label="Price from"]').setValue('listing');
    await new Promise((r) => setTimeout(r, 200));
    await flushPromises();
    expect(wrapper.get('[data-testid=inventory-undercut]').text()).toBe(
      '⚠ 2 new listings are priced more than 30 % under what their item fetches, the most $5.00 against its last sale of $900.00. The review marks them, and applying asks you to confirm.',
    );
    wrapper.unmount();
  });

  it('offers the item name a search that found nothing is near, and searches for it at once when taken', async () => {
    vi.useFakeTimers();
    const wrapper = await mountPicker([], {
      'items:search': ({ text }) => ({
        text, resolved: { ok: false, reason: 'no_such_item', message: 'No item is called that.', candidates: [] }, matches: [], nearMiss: { name: 'Übersaw', sku: '37;6' },
      }),
    });
    await wrapper.get('input[type=search]').setValue('ubersw');
    await vi.advanceTimersByTimeAsync(200);
    await flushPromises();
    const near = wrapper.get('[data-testid=search-near-miss]');
    expect(near.text()).toBe('Did you mean Übersaw?');
    await near.get('button').trigger('click');
    await flushPromises();
    expect((wrapper.get('input[type=search]').element as HTMLInputElement).value).toBe('Übersaw');
    expect(fake.callsTo('inventory:page').at(-1)).toMatchObject({ filter: { text: 'Übersaw' } });
    wrapper.unmount();
  });

  it('marks items listed, drafted and not tradable', async () => {
    const wrapper = await mountPicker([
      item(1, { listing: { state: 'active', price: 1_250 } }), item(2, { drafted: { price: 999 } }), item(3, { tradable: false }),
    ]);
    const cells = wrapper.findAll('[role=row][data-key] .mark').map((c) => c.text());
    expect(cells).toEqual(['Listed $12.50', 'In draft $9.99', 'Not tradable']);
    wrapper.unmount();
  });
});

describe('typed asset IDs', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('flags an ID the inventory does not hold before it is drafted, and still lets it go in', async () => {
    fake = installFakeApi(deskHandlers({
      'inventory:checkAssets': ({ assetIds }) => ({
        stamp: 3, account: MAIN, readAt: Date.now() - 150_000, unchecked: null,
        rows: assetIds.map((assetId) => (assetId === '123'
          ? { assetId, found: 'not_found' as const, account: null, item: null, sku: '', tradable: null, listing: null, drafted: null }
          : { assetId, found: 'here' as const, account: MAIN, item: item(1).item, sku: '205;11;kt-2', tradable: true, listing: null, drafted: null })),
      }),
      'inventory:draftAssets': ({ assetIds }) => ({ draftId: 'd1', added: assetIds.length, replaced: 0, errors: [], errorCount: 0, notFound: ['123'], notFoundCount: 1 }),
    }));
    const wrapper = mount(TypedAssetIds, {
      props: { accounts: [MAIN, LINKED], mainAccount: MAIN },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
    });
    await wrapper.get('textarea').setValue('11000000001\n123');
    await new Promise((r) => setTimeout(r, 300));
    await flushPromises();
    const flag = wrapper.get('[data-testid=typed-missing]').text();
    expect(flag).toContain('Not in the inventory of the main account as read 2 min ago: 123');
    expect(flag).toContain('They can still be added');
    expect(wrapper.text()).toContain('1 item found: Strange Killstreak Rocket Launcher 1.');
    await wrapper.findAll('input').find((i) => i.element.closest('label')?.textContent?.includes('Price for all'))?.setValue('3.00');
    const button = wrapper.findAll('button').find((b) => b.text() === 'Add 2 listings to draft');
    expect(button?.attributes('disabled')).toBeUndefined();
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('inventory:draftAssets')).toEqual([{ assetIds: ['11000000001', '123'], price: 300, game: '440', extras: { promoted: 0 } }]);
  });

  it('counts only what the draft will take: all listed already, nothing to add; a re-drafted price is said as a replacement', async () => {
    const listedAlready = (assetId: string) => ({
      assetId, found: 'here' as const, account: MAIN, item: item(1).item, sku: '205;11;kt-2', tradable: true, listing: { state: 'active' as const, price: 1_000 }, drafted: null,
    });
    let listed = true;
    fake = installFakeApi(deskHandlers({
      'inventory:checkAssets': ({ assetIds }) => ({
        stamp: 3, account: MAIN, readAt: Date.now(), unchecked: null,
        rows: assetIds.map((assetId) => (listed ? listedAlready(assetId) : { ...listedAlready(assetId), listing: null, drafted: { price: 500 } })),
      }),
      'inventory:draftAssets': ({ assetIds }) => ({ draftId: 'd1', added: 0, replaced: assetIds.length, errors: [], errorCount: 0, notFound: [], notFoundCount: 0 }),
    }));
    const wrapper = mount(TypedAssetIds, {
      props: { accounts: [MAIN, LINKED], mainAccount: MAIN },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
    });
    await wrapper.findAll('input').find((i) => i.element.closest('label')?.textContent?.includes('Price for all'))?.setValue('3.00');
    await wrapper.get('textarea').setValue('11000000001\n11000000002\n11000000003\n11000000004\n11000000005');
    await new Promise((r) => setTimeout(r, 300));
    await flushPromises();
    const button = () => wrapper.get('button[type=submit]');
    expect(button().text()).toBe('Add 0 listings to draft');
    expect(button().attributes('disabled')).toBeDefined();
    expect(wrapper.text()).toContain('Every one of these assets is listed already: nothing to add.');

    // Drafted before (not listed): they go in, and the notice says their price was replaced, not that they were added.
    listed = false;
    await wrapper.get('textarea').setValue('11000000001\n11000000002');
    await new Promise((r) => setTimeout(r, 300));
    await flushPromises();
    expect(button().text()).toBe('Add 2 listings to draft');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    const said = JSON.stringify(useNoticesStore().$state);
    expect(said).toContain('2 listings already in the draft are now at $3.00.');
    expect(said).not.toContain('added to the draft');
    wrapper.unmount();
  });
});
