import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApplyJobView, ChangeRow, DraftReview, RelistResultView, UndoResultView, UnknownOutcomeView } from '../../../src-shared/contract.ts';
import { useApplyStore } from '../../../src-renderer/src/stores/apply.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import DraftsView from '../../../src-renderer/src/views/DraftsView.vue';
import { deskHandlers, MAIN } from '../desk-data.ts';
import { installFakeApi, type FakeApi, type Handlers } from '../fake-api.ts';
import { badWording } from '../lib/wording-rules.ts';
import { NO_FINDINGS, NO_UNDERCUTS } from '../../../src-shared/price-guard.ts';

const summary = (over: Partial<{ changeCount: number; failedCount: number; unknownCount: number; doneCount: number }> = {}) => ({
  id: 'd1', name: 'Weekend repricing', createdAt: 0, updatedAt: Date.now(), changeCount: 1, failedCount: 0, unknownCount: 0, doneCount: 0, ...over,
});

const KEY = {
  name: 'Mann Co. Supply Crate Key', known: true, quality: 'Unique', color: '#FFD700', effect: null, killstreak: null,
  wear: null, australium: false, festivized: false, craftable: true,
};

function review(over: Partial<DraftReview> = {}): DraftReview {
  return {
    stamp: 1, draftId: 'd1', openByKind: { 'listing.edit': 1 }, byStatus: { pending: 1 },
    requestsPerEndpoint: { edit_listing: 1 }, etaMs: 0, removes: { listings: 0, buyOrders: 0 },
    guard: { listings: NO_FINDINGS, buyOrders: NO_FINDINGS, undercuts: NO_UNDERCUTS }, ...over,
  };
}

function row(over: Partial<ChangeRow> = {}): ChangeRow {
  return {
    changeId: 'L:11000171305', kind: 'listing.edit', target: '11000171305', item: KEY, account: MAIN, status: 'pending', error: null,
    fields: [{ field: 'price', before: 450, after: 428 }], note: null, ...over,
  };
}

function job(over: Partial<ApplyJobView> = {}): ApplyJobView {
  return {
    jobId: 'j1', draftId: 'd1', runId: 1, state: 'running', itemsTotal: 1200, itemsDone: 300, itemsFailed: 0, itemsUnknown: 0, itemsLeft: 900,
    requestsSent: 3, etaMs: 180_000, startedAt: 0, ...over,
  };
}

function outcome(over: Partial<UnknownOutcomeView> = {}): UnknownOutcomeView {
  return {
    id: 'b1', draftId: 'd1', endpoint: 'create_listing', sentAt: 1_700_000_000_000,
    reason: 'create_listing: the request may have reached the service but its response was lost (UND_ERR_SOCKET); check the result before sending it again',
    itemCount: 1, items: [{ target: 'L:11040302755', change: { asset_id: '11040302755', price: 450 }, item: KEY }],
    choices: [
      { id: 'recreate', label: 'Delete by asset ID and create again', safe: true, explanation: 'Deletes any listing of the asset first, then lists it again.' },
      { id: 'mark_done', label: 'Mark as done', safe: false, explanation: 'Record it as applied without sending anything.' },
      { id: 'drop', label: 'Drop', safe: false, explanation: 'Forget this change.' },
    ],
    evidence: [{ target: '11040302755', at: 1_700_000_060_000, message: 'create_listing: the service refused the request (status 400): {"success":false,"error":"items.0.asset_id: already listed"}' }],
    ...over,
  };
}

/** The words a trader sees: everything but the folded Details. */
function visibleText(wrapper: VueWrapper): string {
  const clone = wrapper.element.cloneNode(true) as HTMLElement;
  for (const d of clone.querySelectorAll('details')) d.remove();
  return clone.textContent?.replace(/\s+/g, ' ') ?? '';
}

describe('Drafts & apply screen', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  async function mountDrafts(over: Handlers = {}) {
    fake = installFakeApi(deskHandlers({
      'drafts:list': () => ({ stamp: 1, currentId: 'd1', drafts: [summary()] }),
      'drafts:review': () => review(),
      'drafts:page': ({ offset = 0 }) => ({ stamp: 1, draftId: 'd1', offset, total: 1, rows: [row()] }),
      ...over,
    }));
    const wrapper = mount(DraftsView, { attachTo: document.body, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    useDraftsStore().start();
    useApplyStore().start();
    await flushPromises();
    return wrapper;
  }

  it('says one time for an apply under way: what is left, never "under a minute" beside "about 3 min left"', async () => {
    const wrapper = await mountDrafts({
      'drafts:review': () => review({ requestsPerEndpoint: {}, etaMs: 0, byStatus: { queued: 900, done: 300 } }),
      'apply:state': () => ({ stamp: 1, job: job() }),
    });
    const text = visibleText(wrapper);
    expect(text).toContain('about 3 min left');
    expect(text).not.toMatch(/under a minute|less than a minute/);
    expect(text).not.toMatch(/Requests\s*0/);
    wrapper.unmount();
  });

  it('counts in words that agree with the number: 1 change, 1 request', async () => {
    const wrapper = await mountDrafts();
    const text = visibleText(wrapper);
    expect(text).toContain('1 change');
    expect(text).toContain('Apply 1 change');
    expect(badWording(text)).toBeNull();
    wrapper.unmount();
  });

  it('names the item of each change and says why a refused one was refused, with the technical part under Details', async () => {
    const refused = row({
      status: 'failed',
      error: 'edit_listing: the service refused the request (status 400): {"success":false,"error":"items.0.price: too high"}',
      failure: { kind: 'rejected', endpoint: 'edit_listing', status: 400, message: 'edit_listing: the service refused the request (status 400): {"success":false,"error":"items.0.price: too high"}' },
    });
    const wrapper = await mountDrafts({ 'drafts:page': ({ offset = 0 }) => ({ stamp: 1, draftId: 'd1', offset, total: 1, rows: [refused] }) });
    const grid = wrapper.get('[role=grid][aria-label="Draft changes"]');
    expect(grid.text()).toContain('Mann Co. Supply Crate Key');
    expect(grid.get('[role=row][data-key] [role=gridcell]:last-child').text()).toBe('refused: price: too high');
    // The row in full below the table: the sentence, and the technical part under Details.
    await grid.get('[role=row][data-key]').trigger('click');
    const focused = wrapper.get('[data-testid=review-focused]');
    expect(focused.text()).toContain('The service refused to edit these listings — item 1, price: too high.');
    expect(focused.get('details').text()).toContain('HTTP status: 400');
    const text = visibleText(wrapper);
    expect(badWording(text)).toBeNull();
    wrapper.unmount();
  });

  it('shows an unknown outcome in words, with what the service said since beside the choices, each readable in full', async () => {
    const wrapper = await mountDrafts({ 'apply:unknownOutcomes': () => ({ stamp: 1, outcomes: [outcome()] }) });
    const panel = wrapper.get('[aria-label="Unknown outcomes"]');
    const text = visibleText(wrapper);
    expect(text).not.toMatch(/UND_ERR|create_listing/);
    expect(badWording(text)).toBeNull();
    expect(panel.text()).toContain('Create listings');
    expect(panel.text()).toContain('Mann Co. Supply Crate Key');
    // The evidence: a later create refused as "already listed" means this one most likely went through.
    expect(panel.text()).toContain('already listed');
    expect(panel.findAll('button').map((b) => b.text())).toEqual(['Delete by asset ID and create again', 'Mark as done', 'Drop']);
    expect(panel.text()).toContain('Forget this change.');
    expect(panel.find('details').exists()).toBe(true);
    wrapper.unmount();
  });

  it('asks before applying prices the price guard marks: only the dialog\'s ticked box and its button confirm, never Enter or the shortcut', async () => {
    const cut = { drops: 29, belowFloor: 0, rises: 0, worstDrop: { key: '11000171305', before: 300, after: 15 }, worstRise: null };
    const wrapper = await mountDrafts({
      'drafts:review': () => review({ guard: { listings: cut, buyOrders: NO_FINDINGS, undercuts: NO_UNDERCUTS }, openByKind: { 'listing.edit': 29 }, byStatus: { pending: 29 } }),
      'drafts:list': () => ({ stamp: 1, currentId: 'd1', drafts: [summary({ changeCount: 29 })] }),
      'drafts:page': ({ offset = 0 }) => ({ stamp: 1, draftId: 'd1', offset, total: 1, rows: [row({ fields: [{ field: 'price', before: 300, after: 15 }], concern: 'drop' })] }),
      'drafts:apply': () => ({ stamp: 2, job: job() }),
    });
    // The review says it and marks the row.
    expect(wrapper.get('[data-testid=review-guard]').text()).toContain('29 listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15).');
    expect(wrapper.find('[aria-label="A deep price cut"]').exists()).toBe(true);
    const ctrlEnter = async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
      await flushPromises();
    };
    await ctrlEnter();
    const dialog = () => document.querySelector('[role=alertdialog]');
    expect(dialog()?.textContent).toContain('29 listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15).');
    const confirm = () => [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.includes('Apply these prices')) as HTMLButtonElement;
    expect(confirm().disabled).toBe(true);
    // Focus starts on Cancel; Enter there cancels, and the shortcut again answers nothing.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await ctrlEnter();
    confirm().click();
    await flushPromises();
    expect(fake.callsTo('drafts:apply')).toEqual([]);
    const box = dialog()?.querySelector('input[type=checkbox]') as HTMLInputElement;
    box.click();
    await flushPromises();
    expect(confirm().disabled).toBe(false);
    confirm().click();
    await flushPromises();
    expect(fake.callsTo('drafts:apply')).toEqual([
      { draftId: 'd1', confirmGuard: { listings: { drops: 29, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 }, undercuts: 0 } },
    ]);
  });

  it('marks a new listing priced far under what its item fetches, and asks before applying it, naming the deletions that go with it', async () => {
    const undercuts = { count: 1, worst: { key: '11040302755', sku: '5021;6', price: 200, reference: { source: 'listing' as const, cents: 1_000 } } };
    const wrapper = await mountDrafts({
      'drafts:review': () => review({ guard: { listings: NO_FINDINGS, buyOrders: NO_FINDINGS, undercuts }, openByKind: { 'listing.create': 1, 'listing.delete': 3 }, byStatus: { pending: 4 } }),
      'drafts:list': () => ({ stamp: 1, currentId: 'd1', drafts: [summary({ changeCount: 4 })] }),
      'drafts:page': ({ offset = 0 }) => ({
        stamp: 1, draftId: 'd1', offset, total: 1,
        rows: [row({ kind: 'listing.create', target: '11040302755', fields: [{ field: 'price', before: null, after: 200 }], concern: 'under', reference: undercuts.worst.reference })],
      }),
      'drafts:apply': () => ({ stamp: 2, job: job() }),
    });
    const said = '1 new listing is priced more than 30 % under what its item fetches: $2.00 against its lowest listing of $10.00.';
    expect(wrapper.get('[data-testid=review-guard]').text()).toContain(said);
    expect(wrapper.find('[aria-label="Far under the item\'s lowest listing ($10.00)"]').exists()).toBe(true);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    await flushPromises();
    const dialog = document.querySelector('[role=alertdialog]');
    expect(dialog?.textContent).toContain(said);
    expect(dialog?.querySelector('[data-testid=guard-deletes]')?.textContent).toBe('The same apply also deletes 3 listings.');
    (dialog?.querySelector('input[type=checkbox]') as HTMLInputElement).click();
    await flushPromises();
    [...(dialog?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.includes('Apply these prices'))?.click();
    await flushPromises();
    expect(fake.callsTo('drafts:apply')).toEqual([
      { draftId: 'd1', confirmGuard: { listings: { drops: 0, belowFloor: 0, rises: 0 }, buyOrders: { drops: 0, belowFloor: 0, rises: 0 }, undercuts: 1 } },
    ]);
    wrapper.unmount();
  });

  it('asks on the review of the draft as it is when Ctrl+Enter is pressed, not on one read before a bulk edit marked it', async () => {
    const cut = { drops: 29, belowFloor: 0, rises: 0, worstDrop: { key: '11000171305', before: 300, after: 15 }, worstRise: null };
    // The screen read the draft before the 95 % cut went in; every read after finds the cut.
    let reads = 0;
    const wrapper = await mountDrafts({
      'drafts:review': () => (reads++ === 0 ? review({ byStatus: { pending: 29 } }) : review({ guard: { listings: cut, buyOrders: NO_FINDINGS, undercuts: NO_UNDERCUTS }, openByKind: { 'listing.edit': 29 }, byStatus: { pending: 29 } })),
      'drafts:list': () => ({ stamp: 1, currentId: 'd1', drafts: [summary({ changeCount: 29 })] }),
      'drafts:apply': () => ({ stamp: 2, job: job() }),
    });
    expect(wrapper.find('[data-testid=review-guard]').exists()).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }));
    await flushPromises();
    expect(document.querySelector('[role=alertdialog]')?.textContent).toContain('29 listings drop by more than 30 %, the most by 95 % ($3.00 → $0.15).');
    expect(fake.callsTo('drafts:apply')).toEqual([]);
  });

  it('after "Undo this apply" shows the undo draft\'s review and what the undo cannot bring back, until closed', async () => {
    const undo: UndoResultView = {
      runId: 1, draftId: 'd2', name: 'Undo of apply 2026-01-05 14:03', restored: 29, removed: 1, recreated: 0, unchanged: 0, unresolved: 1,
      notes: [
        { domain: 'listings', key: '11000171305', item: KEY, outcome: 'lost', reason: 'deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing' },
        { domain: 'listings', key: '11000171306', item: null, outcome: 'changedSince', reason: 'changed since this apply (now $7.77, it left $0.15); set back to its values before this apply anyway' },
      ],
      noteCounts: { lost: 1, changedSince: 3, partly: 0 }, relistable: 1,
    };
    let currentId = 'd1';
    const wrapper = await mountDrafts({
      'drafts:list': () => ({
        stamp: currentId === 'd1' ? 1 : 2, currentId,
        drafts: [summary({ changeCount: 0, doneCount: 1200 }), { ...summary({ changeCount: 30 }), id: 'd2', name: undo.name }],
      }),
      'drafts:review': ({ draftId }) => review({ draftId, openByKind: draftId === 'd2' ? { 'listing.edit': 29, 'listing.delete': 1 } : {} }),
      'apply:state': () => ({ stamp: 1, job: job({ state: 'done', itemsDone: 1200, itemsLeft: 0, etaMs: 0 }) }),
      'apply:undo': () => {
        currentId = 'd2';
        return undo;
      },
    });
    await wrapper.get('button:not([disabled])[title^="Makes a draft"]').trigger('click');
    await flushPromises();
    expect(fake.callsTo('apply:undo')).toEqual([{ runId: 1 }]);
    expect(fake.callsTo('drafts:review')).toContainEqual({ draftId: 'd2' });
    expect(wrapper.get('.head h2').text()).toBe(undo.name);
    const panel = wrapper.get('[data-testid=undo-result]');
    const text = panel.text().replace(/\s+/g, ' ');
    expect(text).toContain('“Undo of apply 2026-01-05 14:03” is ready to review');
    expect(text).toContain('This draft sets 29 rows back to their values before the apply, deletes 1 row the apply created. Nothing is sent until you apply it.');
    expect(text).toContain('1 change of the apply has an unknown outcome: resolve it, then undo the apply again to take it back too.');
    expect(text).toContain('Cannot come back (1)');
    expect(text).toContain('Mann Co. Supply Crate Key');
    expect(text).toContain('Listing of asset 11000171305');
    expect(text).toContain('Deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing.');
    expect(text).toContain('Changed since the apply, undone anyway (3)');
    expect(text).toContain('And 2 more.');
    expect(badWording(visibleText(wrapper))).toBeNull();
    // The finished apply belongs to the draft it applied: not shown beside the undo draft.
    expect(wrapper.find('[aria-label="Apply progress"]').exists()).toBe(false);
    await panel.get('button').trigger('click');
    expect(wrapper.find('[data-testid=undo-result]').exists()).toBe(false);
    wrapper.unmount();
  });

  it('offers to list the deleted listings again: a draft of their own, made current and reviewed, with what it could not take', async () => {
    const undo: UndoResultView = {
      runId: 4, draftId: null, name: 'Undo of apply 2026-01-05 14:03', restored: 0, removed: 0, recreated: 0, unchanged: 0, unresolved: 0,
      notes: [{ domain: 'listings', key: '11000171305', item: KEY, outcome: 'lost', reason: 'deleted by this apply: a deleted listing cannot come back, but its asset can be listed again as a new listing' }],
      noteCounts: { lost: 5, changedSince: 0, partly: 0 }, relistable: 5,
    };
    const relisted: RelistResultView = {
      draftId: 'd3', name: 'List again: deleted by apply 2026-01-05 14:03', added: 4, refused: 1,
      reasons: ['L:11000171309: asset 11000171309 is already in draft “Weekend repricing”'],
    };
    let currentId = 'd1';
    const wrapper = await mountDrafts({
      'drafts:list': () => ({
        stamp: currentId === 'd1' ? 1 : 2, currentId,
        drafts: [summary({ changeCount: 0, doneCount: 5 }), { ...summary({ changeCount: 4 }), id: 'd3', name: relisted.name }],
      }),
      'drafts:review': ({ draftId }) => review({ draftId, openByKind: draftId === 'd3' ? { 'listing.create': 4 } : {} }),
      'apply:state': () => ({ stamp: 1, job: job({ runId: 4, state: 'done', itemsTotal: 5, itemsDone: 5, itemsLeft: 0, etaMs: 0 }) }),
      'apply:undo': () => undo,
      'apply:relistDeleted': () => {
        currentId = 'd3';
        return relisted;
      },
    });
    await wrapper.get('button:not([disabled])[title^="Makes a draft"]').trigger('click');
    await flushPromises();
    const panel = wrapper.get('[data-testid=undo-result]');
    expect(panel.text().replace(/\s+/g, ' ')).toContain('Makes another draft that lists the deleted listings\' assets at their last prices, for you to review and apply.');
    expect(fake.callsTo('apply:relistDeleted')).toEqual([]);
    await panel.get('button[aria-describedby=relist-what]').trigger('click');
    await flushPromises();
    expect(fake.callsTo('apply:relistDeleted')).toEqual([{ runId: 4 }]);
    expect(wrapper.get('.head h2').text()).toBe(relisted.name);
    expect(fake.callsTo('drafts:review')).toContainEqual({ draftId: 'd3' });
    expect(wrapper.find('[data-testid=undo-result]').exists()).toBe(false);
    const made = wrapper.get('[data-testid=relist-result]');
    const text = made.text().replace(/\s+/g, ' ');
    expect(text).toContain(`“${relisted.name}” is ready to review`);
    expect(text).toContain('This draft lists 4 assets again at the price, promotion and note their listings had before the apply deleted them. Nothing is sent until you apply it.');
    expect(text).toContain('1 asset could not be put in the draft:');
    expect(text).toContain(relisted.reasons[0]);
    expect(badWording(visibleText(wrapper))).toBeNull();
    await made.get('button').trigger('click');
    expect(wrapper.find('[data-testid=relist-result]').exists()).toBe(false);
    wrapper.unmount();
  });
});
