import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ApplyPanel from '../../../src-renderer/src/components/ApplyPanel.vue';
import type { ApplyJobView } from '../../../src-shared/contract.ts';
import { deskHandlers } from '../desk-data.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';
import { useApplyStore } from '../../../src-renderer/src/stores/apply.ts';
import { useDraftsStore } from '../../../src-renderer/src/stores/drafts.ts';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import type { UndoResultView } from '../../../src-shared/contract.ts';
import { badWording } from '../lib/wording-rules.ts';

const job = (over: Partial<ApplyJobView>): ApplyJobView => ({
  jobId: 'j1', draftId: 'd1', runId: 1, state: 'running', itemsTotal: 400, itemsDone: 120, itemsFailed: 0, itemsUnknown: 0, itemsLeft: 280,
  requestsSent: 3, etaMs: 60_000, startedAt: 0, ...over,
});

describe('apply panel', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('says an apply paused by a full disk waits for space and goes on by itself, without a Resume to press', () => {
    fake = installFakeApi(deskHandlers({}));
    const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false });
    const paused = mount(ApplyPanel, {
      props: { job: job({ state: 'paused', etaMs: null, storeProblem: { kind: 'disk_full', message: 'The disk is full, so this was not saved' } }) },
      global: { plugins: [pinia] },
    });
    const text = paused.text();
    expect(text).toContain('Paused until the desk can save again');
    expect(text).toContain('The disk is full: free some space. Nothing saved was lost, and the desk carries on once there is room.');
    expect(text).not.toContain('Something went wrong');
    expect(paused.find('[role=status]').exists()).toBe(true);
    expect(paused.findAll('button').map((b) => b.text())).toEqual(['Cancel']);
    expect(badWording(text)).toBeNull();

    // Paused by the trader: Resume is theirs to press.
    const byTrader = mount(ApplyPanel, { props: { job: job({ state: 'paused', etaMs: null }) }, global: { plugins: [pinia] } });
    expect(byTrader.text()).toContain('Paused');
    expect(byTrader.findAll('button').map((b) => b.text())).toEqual(['Resume', 'Cancel']);
  });

  it('says why its listing batches wait for the trade lists and when the read goes; the time left counts the wait', async () => {
    vi.useFakeTimers({ now: 1_700_000_000_000, toFake: ['Date'] });
    try {
      fake = installFakeApi(deskHandlers({}));
      const waiting = { reason: 'trade_read' as const, listings: 2, since: Date.now() - 3_000, readAt: Date.now() + 41_000 };
      const panel = mount(ApplyPanel, { props: { job: job({ itemsDone: 0, etaMs: 185_000, waiting }) }, global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
      await flushPromises();
      const wait = panel.get('[data-testid=apply-wait]');
      expect(wait.attributes('role')).toBe('status');
      expect(wait.text()).toBe('Waiting for the trade lists to tell whether 2 listings the service called gone were sold: next read in about 41 s. Listing changes go on after it.');
      expect(panel.text()).toContain('about 4 min left');
      expect(badWording(panel.text())).toBeNull();
      // The read on its way answers first; once the wait ends, or the job, nothing is said.
      await panel.setProps({ job: job({ waiting: { ...waiting, listings: 1, readAt: null } }) });
      expect(panel.get('[data-testid=apply-wait]').text()).toContain('whether 1 listing the service called gone was sold: the read on its way answers first');
      await panel.setProps({ job: job({}) });
      expect(panel.find('[data-testid=apply-wait]').exists()).toBe(false);
      await panel.setProps({ job: job({ state: 'done', waiting }) });
      expect(panel.find('[data-testid=apply-wait]').exists()).toBe(false);
      panel.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers "Undo this apply" once a job has ended with something done, and asks main for the undo of its run', async () => {
    const undo: UndoResultView = {
      runId: 7, draftId: 'd2', name: 'Undo of apply 2026-01-05 14:03', restored: 3, removed: 1, recreated: 0, unchanged: 0, unresolved: 0,
      notes: [], noteCounts: { lost: 0, changedSince: 0, partly: 0 }, relistable: 0,
    };
    fake = installFakeApi(deskHandlers({
      'apply:undo': () => undo,
      'drafts:list': () => ({ stamp: 2, currentId: 'd2', drafts: [] }),
    }));
    const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false });
    const buttons = (over: Partial<ApplyJobView>) =>
      mount(ApplyPanel, { props: { job: job(over) }, global: { plugins: [pinia] } }).findAll('button').map((b) => b.text());
    expect(buttons({ state: 'running' })).not.toContain('Undo this apply');
    expect(buttons({ state: 'done', itemsDone: 0, itemsFailed: 400, etaMs: 0 })).not.toContain('Undo this apply');
    expect(buttons({ state: 'cancelled', itemsDone: 120, etaMs: 0 })).toContain('Undo this apply');
    // Shown where the job is named in a word (the tray's compact view steers nothing).
    expect(mount(ApplyPanel, { props: { job: job({ state: 'done' }), compact: true }, global: { plugins: [pinia] } }).text()).not.toContain('Undo');

    const panel = mount(ApplyPanel, { props: { job: job({ state: 'done', itemsDone: 400, runId: 7 }) }, global: { plugins: [pinia] } });
    await panel.get('button').trigger('click');
    await flushPromises();
    expect(fake.callsTo('apply:undo')).toEqual([{ runId: 7 }]);
    // Main made the undo draft current: the list is read again, and its review shows what is open.
    expect(useApplyStore().undone).toEqual(undo);
    expect(useDraftsStore().currentId).toBe('d2');
    expect(useDraftsStore().show).toBe('open');
  });

  it('says why an undo was refused, and keeps the panel as it was', async () => {
    fake = installFakeApi(deskHandlers({
      'apply:undo': () => {
        throw new Refusal({ kind: 'conflict', message: 'Nothing of this apply was done, so there is nothing to undo' });
      },
    }));
    const pinia = createTestingPinia({ createSpy: vi.fn, stubActions: false });
    const panel = mount(ApplyPanel, { props: { job: job({ state: 'stopped', itemsDone: 5 }) }, global: { plugins: [pinia] } });
    await panel.get('button').trigger('click');
    await flushPromises();
    expect(useApplyStore().undone).toBeNull();
    expect(fake.callsTo('drafts:list')).toEqual([]);
    expect(useNoticesStore().notices.map((n) => n.text)).toEqual([expect.stringMatching(/^Nothing of this apply was done, so there is nothing to undo/)]);
  });
});
