import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeView } from '../../../src-shared/contract.ts';
import { useAccountsStore } from '../../../src-renderer/src/stores/accounts.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import { useLedgerStore } from '../../../src-renderer/src/stores/ledger.ts';
import ListingsView from '../../../src-renderer/src/views/ListingsView.vue';
import { deskHandlers, listing, LINKED } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

describe('Listings screen', () => {
  let fake: FakeApi;
  let changes: ChangeView[];
  afterEach(() => {
    fake.uninstall();
    document.body.innerHTML = '';
  });

  async function mountListings() {
    localStorage.clear();
    changes = [];
    const rows = Array.from({ length: 200 }, (_, i) => listing(i, { state: i < 150 ? 'active' : 'inactive', ...(i % 50 === 0 ? { account: LINKED } : {}) }));
    fake = installFakeApi(
      deskHandlers({
        'listings:list': () => rows,
        'drafts:list': () => [{ id: 'd1', name: 'Monday', createdAt: 0, updatedAt: 1, changeCount: changes.length, failedCount: 0, unknownCount: 0, doneCount: 0 }],
        'drafts:changes': () => changes,
        'drafts:bulk': ({ selection }) => ({ changed: 'ids' in selection ? selection.ids.length : 0, matched: 0, refused: [] }),
        'drafts:addChanges': ({ changes: list }) => {
          list.forEach((c, i) => changes.push({ id: `c${i}`, kind: c.kind, target: 'asset_id' in c ? (c.asset_id ?? '') : '', fields: { ...c }, status: 'pending', error: null, updatedAt: 0 }));
          return { added: list.length, errors: [] };
        },
      }),
    );
    const wrapper = mount(ListingsView, {
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
      attachTo: document.body,
    });
    await Promise.all([useLedgerStore().load(), useDraftsStore().load(), useAccountsStore().load()]);
    await flushPromises();
    return wrapper;
  }

  const row = (wrapper: Awaited<ReturnType<typeof mountListings>>, asset: string) => wrapper.get(`[role=row][data-key="${asset}"]`);

  it('selects with click and shift-click, and sends the bulk formula for exactly those rows', async () => {
    const wrapper = await mountListings();
    await row(wrapper, '1002').trigger('click');
    await row(wrapper, '1005').trigger('click', { shiftKey: true });
    await row(wrapper, '1010').trigger('click', { ctrlKey: true });
    expect(wrapper.text()).toContain('5 selected');

    await wrapper.findAll('button').find((b) => b.text() === 'Bulk edit…')?.trigger('click');
    await wrapper.get('input[aria-label=Percent]').setValue('90');
    expect(wrapper.get('form[aria-label="Bulk edit"]').text()).toContain('$1.02 → $0.92');
    await wrapper.get('form[aria-label="Bulk edit"]').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('drafts:bulk')).toEqual([
      { draftId: 'd1', target: 'listings', selection: { ids: ['1002', '1003', '1004', '1005', '1010'] }, op: { op: 'multiply', percent: 90, rounding: 'nearest' } },
    ]);
  });

  it('selects all rows the filter shows', async () => {
    const wrapper = await mountListings();
    await wrapper.get('input[aria-label="Search listings"]').setValue('5010;6');
    expect(wrapper.text()).toContain('4 of 200');
    await wrapper.get('[role=grid]').trigger('keydown', { key: 'a', ctrlKey: true });
    expect(wrapper.text()).toContain('4 selected');
  });

  it('shows the draft’s pending price as before → after', async () => {
    const wrapper = await mountListings();
    changes.push({ id: 'c1', kind: 'listing.edit', target: '1003', fields: { listing_id: 'L3', price: 250, promoted: 0 }, status: 'pending', error: null, updatedAt: 0 });
    await useDraftsStore().load();
    await flushPromises();
    const cell = row(wrapper, '1003');
    expect(cell.text()).toContain('$1.03');
    expect(cell.text()).toContain('$2.50');
    expect(cell.get('.pending').text()).toBe('$2.50');
  });

  it('puts an inline price edit into the draft, never to the service', async () => {
    const wrapper = await mountListings();
    await row(wrapper, '1004').trigger('click');
    await wrapper.get('[role=grid]').trigger('keydown', { key: 'Enter' });
    const editor = wrapper.get('input[aria-label="New price"]');
    await editor.setValue('9.99');
    await editor.trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(fake.callsTo('drafts:addChanges')).toEqual([{ draftId: 'd1', changes: [{ kind: 'listing.edit', asset_id: '1004', price: 999 }] }]);
  });

  it('says exactly what delete all removes before drafting it', async () => {
    const wrapper = await mountListings();
    await wrapper.findAll('button').find((b) => b.text() === 'Delete all…')?.trigger('click');
    const dialog = wrapper.get('[role=alertdialog]');
    // 200 listings, 4 on the linked account; of the main account's 196, 147 are active.
    expect(dialog.text()).toContain('Active only: 147 listings');
    expect(dialog.text()).toContain('all 196 listings of the main account');
    await dialog.findAll('button').find((b) => b.text().startsWith('Put delete all'))?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:addChanges')).toEqual([{ draftId: 'd1', changes: [{ kind: 'listing.deleteAll', active_only: true }] }]);
  });
});
