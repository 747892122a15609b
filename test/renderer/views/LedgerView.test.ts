import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LedgerView from '../../../src-renderer/src/views/LedgerView.vue';
import { deskHandlers, listing, pagesOf } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

describe('a ledger screen', () => {
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    document.body.innerHTML = '';
  });

  async function mountListings() {
    const rows = [
      listing(1, { item: { name: 'Mann Co. Supply Crate Key', known: true, quality: 'Unique', color: '#FFD700', effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true } }),
      listing(2, { change: 'delete', removedByDeleteAll: true }),
      listing(3, { listing_id: null, state: 'id_unknown', blocked: 'its listing ID is unknown (the create response was lost)' }),
    ];
    fake = installFakeApi(deskHandlers({
      'ledger:page': pagesOf(rows),
      'ledger:deleteAllImpact': ({ activeOnly }) => ({ domain: 'listings', removes: activeOnly ? 2 : 3, replacesChanges: 2, keepsCreates: 1 }),
      'ledger:preview': () => ({
        changed: 2, matched: 2, skipped: [{ reason: 'its listing ID is unknown (the create response was lost)', count: 1, sample: ['1003'] }],
        refused: [], samples: [{ key: '1001', before: 101, after: 91 }], minAfter: 91, maxAfter: 92,
      }),
      'drafts:addChanges': () => ({ draftId: 'd1', added: 1, errors: [], errorCount: 0 }),
    }));
    const wrapper = mount(LedgerView, {
      props: { domain: 'listings' },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
      attachTo: document.body,
    });
    await flushPromises();
    return wrapper;
  }

  it('shows items by name with their SKU, what the draft does to each row, and a listing whose ID is unknown', async () => {
    const wrapper = await mountListings();
    const rows = wrapper.findAll('[role=row][data-key]');
    expect(rows[0]?.text()).toContain('Mann Co. Supply Crate Key');
    expect(rows[0]?.text()).toContain('5001;6');
    expect(rows[1]?.get('.chg').text()).toBe('all');
    expect(rows[2]?.text()).toContain('ID unknown');
    expect(rows[2]?.find('button.link').text()).toBe('Relist');
  });

  it('says before a delete-all what goes and what becomes of the pending edits, from main’s count', async () => {
    const wrapper = await mountListings();
    await wrapper.get('button.danger').trigger('click');
    await flushPromises();
    const said = document.body.querySelector('[data-testid=delete-all-impact]')?.textContent ?? '';
    expect(said).toMatch(/2 listings of every account/);
    expect(said).toMatch(/2 pending edits and deletes of those listings leave the draft/);
    expect(said).toMatch(/1 new listing in the draft stays/);
    expect(fake.callsTo('ledger:deleteAllImpact')).toEqual([{ domain: 'listings', activeOnly: true }]);
  });

  it('previews a bulk edit as main computed it, with the rows left out and why', async () => {
    vi.useFakeTimers();
    try {
      const wrapper = await mountListings();
      const grid = wrapper.get('[role=grid]');
      await grid.trigger('keydown', { key: 'a', ctrlKey: true });
      await wrapper.findAll('button').find((b) => b.text() === 'Bulk edit…')?.trigger('click');
      await vi.advanceTimersByTimeAsync(300);
      await flushPromises();
      const preview = wrapper.get('[data-testid=bulk-preview]').text();
      expect(preview).toContain('$1.01 → $0.91');
      expect(preview).toMatch(/1 listing left out: its listing ID is unknown/);
      expect(fake.callsTo('ledger:preview')[0]).toMatchObject({ selection: { filter: {}, except: [] } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes each panel and dialog with Escape, wherever the focus is, and gives the focus back to what opened it', async () => {
    const wrapper = await mountListings();
    const button = (text: string) => wrapper.findAll('button').find((b) => b.text() === text);
    const open = (title: string) => wrapper.findAll('section, form').some((el) => el.find('h2').exists() && el.get('h2').text().startsWith(title));
    const escape = async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
      await flushPromises();
    };

    await button('Create…')?.trigger('click');
    await flushPromises();
    expect(open('Create listings')).toBe(true);
    // The panel's first field takes the focus: typing goes straight into it.
    expect(document.activeElement?.tagName).toBe('TEXTAREA');
    (document.activeElement as HTMLElement).blur();
    await escape();
    expect(open('Create listings')).toBe(false);

    await button('Import CSV…')?.trigger('click');
    await flushPromises();
    expect(open('Import CSV')).toBe(true);
    await escape();
    expect(open('Import CSV')).toBe(false);

    await wrapper.get('[role=grid]').trigger('keydown', { key: 'a', ctrlKey: true });
    await button('Bulk edit…')?.trigger('click');
    await flushPromises();
    expect(open('Bulk edit')).toBe(true);
    await escape();
    expect(open('Bulk edit')).toBe(false);

    await wrapper.get('button.danger').trigger('click');
    await flushPromises();
    expect(document.body.querySelector('[role=alertdialog]')).not.toBeNull();
    await escape();
    expect(document.body.querySelector('[role=alertdialog]')).toBeNull();
  });

  it('keeps a note longer than the service takes as typed in the create panel, and says why it cannot go in yet', async () => {
    const wrapper = await mountListings();
    await wrapper.findAll('button').find((b) => b.text() === 'Create…')?.trigger('click');
    const note = 'n'.repeat(216);
    const input = wrapper.findAll('input').find((i) => i.element.closest('label')?.textContent?.includes('Note for all'));
    await input?.setValue(note);
    expect((input?.element as HTMLInputElement).value).toHaveLength(216);
    expect(input?.attributes('maxlength')).toBeUndefined();
    expect(wrapper.text()).toContain('A note holds at most 180 characters; this one has 216.');
  });
});
