import { createTestingPinia } from '@pinia/testing';
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ApplyPanel from '../../../src-renderer/src/components/ApplyPanel.vue';
import type { ApplyJobView } from '../../../src-shared/contract.ts';
import { deskHandlers } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';
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
});
