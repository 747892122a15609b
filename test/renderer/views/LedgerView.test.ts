import { NO_FINDINGS } from '../../../src-shared/price-guard.ts';
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
        refused: [], samples: [{ key: '1001', before: 101, after: 91 }], minAfter: 91, maxAfter: 92, guard: NO_FINDINGS,
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

  it('offers the item name a search that found nothing is a few typos from, and searches for it when taken', async () => {
    const key = listing(1, { item: { name: 'Mann Co. Supply Crate Key', known: true, quality: 'Unique', color: '#FFD700', effect: null, killstreak: null, wear: null, australium: false, festivized: false, craftable: true } });
    const other = listing(2);
    fake = installFakeApi(deskHandlers({
      // Main finds the key by its name, and nothing for the misspelt one.
      'ledger:page': ({ domain, filter }) => {
        const text = filter?.text;
        const rows = text === undefined ? [key, other] : text === 'Mann Co. Supply Crate Key' ? [key] : [];
        return { domain, draftId: null, stamps: { ledger: 1, drafts: 1 }, offset: 0, total: rows.length, all: 2, changed: 0, rows };
      },
      'items:search': ({ text }) => ({
        text, resolved: { ok: false, reason: 'no_such_item', message: 'No item is called that.', candidates: [] }, matches: [], nearMiss: { name: 'Mann Co. Supply Crate Key', sku: '5021;6' },
      }),
    }));
    const wrapper = mount(LedgerView, { props: { domain: 'listings' }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    await wrapper.get('input[type=search]').setValue('Mann Co Suply Crate Key');
    await flushPromises();
    expect(wrapper.findAll('[role=row][data-key]')).toHaveLength(0);
    const near = wrapper.get('[data-testid=search-near-miss]');
    expect(near.text()).toBe('Did you mean Mann Co. Supply Crate Key?');
    await near.get('button').trigger('click');
    await flushPromises();
    expect((wrapper.get('input[type=search]').element as HTMLInputElement).value).toBe('Mann Co. Supply Crate Key');
    expect(wrapper.findAll('[role=row][data-key]').map((r) => r.attributes('data-key'))).toEqual([key.key]);
  });

  it('counts nothing before main has answered, then the counts main gave', async () => {
    const rows = [listing(1), listing(2), listing(3)];
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const page = pagesOf(rows);
    fake = installFakeApi(deskHandlers({ 'ledger:page': async (input) => (await answered, page(input)) }));
    const wrapper = mount(LedgerView, {
      props: { domain: 'listings' },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
      attachTo: document.body,
    });
    await flushPromises();
    // "0 of 0 · 0 selected" here would be a count nobody made.
    expect(wrapper.get('[data-testid=table-counts]').text()).toBe('');
    answer();
    await flushPromises();
    expect(wrapper.get('[data-testid=table-counts]').text()).toBe('3 of 3 · 0 selected');
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
      // No operation is filled in: nothing is previewed, and nothing can be added, until the trader chooses one.
      const form = wrapper.get('form.bulk');
      expect(form.text()).toContain('Choose an operation.');
      expect(fake.callsTo('ledger:preview')).toHaveLength(0);
      expect(form.get('button[type=submit]').attributes('disabled')).toBeDefined();
      await form.get('select').setValue('multiply');
      await form.get('input[inputmode=decimal]').setValue('90');
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

  it('asks before an inline price the price guard marks goes into the draft; a price within it goes at once', async () => {
    const wrapper = await mountListings();
    const priceCell = () => wrapper.findAll('[role=row][data-key="1001"] [role=gridcell]')[3];
    const type = async (text: string) => {
      await priceCell()?.trigger('dblclick');
      const input = wrapper.get('input.inline-editor');
      await input.setValue(text);
      await input.trigger('keydown', { key: 'Enter' });
      await flushPromises();
    };
    const dialog = () => document.querySelector('[role=alertdialog]');
    // $1.01 → $0.05: a 95 % cut.
    await type('0.05');
    expect(dialog()?.textContent).toContain('This cuts the price by 95 % ($1.01 → $0.05).');
    expect(fake.callsTo('drafts:addChanges')).toEqual([]);
    [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Cancel')?.click();
    await flushPromises();
    expect(fake.callsTo('drafts:addChanges')).toEqual([]);
    await type('0.05');
    [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Change it')?.click();
    await flushPromises();
    expect(fake.callsTo('drafts:addChanges')).toEqual([{ changes: [{ kind: 'listing.edit', asset_id: '1001', price: 5 }] }]);
    await type('0.95');
    expect(dialog()).toBeNull();
    expect(fake.callsTo('drafts:addChanges')).toHaveLength(2);
    wrapper.unmount();
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
    // The panel's first field takes the focus: typing goes straight into the inventory search.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Search inventory');
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
    await wrapper.findAll('[role=tab]').find((b) => b.text() === 'Asset IDs')?.trigger('click');
    const note = 'n'.repeat(216);
    const input = wrapper.findAll('input').find((i) => i.element.closest('label')?.textContent?.includes('Note for all'));
    await input?.setValue(note);
    expect((input?.element as HTMLInputElement).value).toHaveLength(216);
    expect(input?.attributes('maxlength')).toBeUndefined();
    expect(wrapper.text()).toContain('A note holds at most 180 characters; this one has 216.');
  });

  it('shows a sold or vanished listing’s state with its trade or its reason in the State cell', async () => {
    fake = installFakeApi(deskHandlers({
      'ledger:page': pagesOf([
        listing(1, { state: 'sold_in_trade', stateReason: 'sold in trade 6100028960', tradeId: '6100028960', blocked: 'it is sold (trade 6100028960)' }),
        listing(2, { state: 'not_on_service', stateReason: 'edit_listing: the service refused the request (status 400): {"success":false,"error":"items.0.listing_id: no such listing"}' }),
        listing(3, { state: 'sold', stateReason: 'sold in trade 61, which has left the pending list', tradeId: '61' }),
      ]),
    }));
    const wrapper = mount(LedgerView, { props: { domain: 'listings' }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    const state = (i: number) => wrapper.findAll('[role=row][data-key]')[i]?.find('.state');
    expect(state(0)?.text()).toBe('sold, in trade· trade 6100028960');
    expect(state(0)?.attributes('title')).toContain('Bulk edits leave it out: it is sold (trade 6100028960).');
    expect(state(1)?.text()).toBe('not on service· Refused: listing ID: no such listing.');
    expect(state(1)?.text()).not.toMatch(/status|\{/);
    expect(state(2)?.text()).toBe('sold· trade 61');
  });

  it('checks the ledger on demand and shows main’s answer: what was read again, why not, and the rows in doubt', async () => {
    fake = installFakeApi(deskHandlers({
      'ledger:page': pagesOf([listing(1)]),
      'apply:unknownOutcomes': () => ({ stamp: 1, outcomes: [{
        id: 'b7', draftId: 'd2', endpoint: 'create_listing', sentAt: null, reason: 'create_listing: lost (UND_ERR_SOCKET)', itemCount: 1,
        items: [{ target: 'L:55', change: { asset_id: '55' } }], choices: [], evidence: [],
      }] }),
      'drafts:list': () => ({ stamp: 1, currentId: 'd1', drafts: [] }),
      'drafts:select': ({ draftId }) => ({ id: draftId, name: 'x', createdAt: 0, updatedAt: 0, changeCount: 0, failedCount: 0, unknownCount: 0, doneCount: 0 }),
      'ledger:check': () => ({
        checkedAt: Date.now(),
        trades: { ok: true },
        balance: { ok: false, error: { kind: 'network', endpoint: 'get_balance', message: 'get_balance: could not reach the service, the request was not sent (ECONNREFUSED)' } },
        rows: [
          { kind: 'listing', key: '11', state: 'sold_in_trade', reason: 'sold in trade 42, which is still pending', tradeId: '42' },
          { kind: 'listing', key: '55', state: 'unknown_outcome', outcomeId: 'b7', reason: 'create_listing may or may not have been applied (create_listing: lost (UND_ERR_SOCKET))' },
        ],
      }),
    }));
    const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false });
    const wrapper = mount(LedgerView, { props: { domain: 'listings' }, global: { plugins: [pinia] }, attachTo: document.body });
    const { useApplyStore } = await import('../../../src-renderer/src/stores/apply.ts');
    const { useAppStore } = await import('../../../src-renderer/src/stores/app.ts');
    useApplyStore().start();
    await flushPromises();
    await wrapper.findAll('button').find((b) => b.text() === 'Check ledger')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('ledger:check')).toHaveLength(1);
    const panel = wrapper.get('[aria-labelledby=check-title]');
    // What the trader reads: the technical part is folded under Details.
    const shown = panel.element.cloneNode(true) as HTMLElement;
    for (const d of shown.querySelectorAll('details')) d.remove();
    const text = shown.textContent ?? '';
    expect(panel.find('details').text()).toContain('ECONNREFUSED');
    expect(text).toMatch(/Trades\s*read again at/);
    expect(text).toContain('The service cannot be reached');
    expect(text).toContain('2 rows in doubt');
    expect(text).toContain('Sold in trade 42, which is still pending.');
    expect(text).toContain('Create listings: sent, but the answer was lost');
    expect(text).not.toMatch(/UND_ERR|ECONNREFUSED|create_listing/);
    await panel.findAll('button').find((b) => b.text() === 'Resolve in Drafts')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('drafts:select')).toEqual([{ draftId: 'd2' }]);
    expect(useAppStore().view).toBe('drafts');
    expect(useAppStore().focusOutcomeId).toBe('b7');
  });
});
