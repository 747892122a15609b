import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApplyJobView } from '../../../src-shared/contract.ts';
import { useActivityStore } from '../../../src-renderer/src/stores/activity.ts';
import { useApplyStore } from '../../../src-renderer/src/stores/apply.ts';
import { useAppStore } from '../../../src-renderer/src/stores/app.ts';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import { useTradesStore } from '../../../src-renderer/src/stores/trades.ts';
import { deskHandlers, trade } from '../desk-data.ts';
import { flush, installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

const job: ApplyJobView = {
  jobId: 'j1', draftId: 'd1', runId: 1, state: 'running', itemsTotal: 10, itemsDone: 2, itemsFailed: 0, itemsUnknown: 0,
  itemsLeft: 8, requestsSent: 1, etaMs: 1000, startedAt: 0,
};

/** The stores that mirror main: they load at start, follow main's events, and keep the newest stamp. */
describe('stores mirroring main', () => {
  let fake: FakeApi;
  /** What the next apply:cancel replies, and when (a reply can arrive after the events it caused). */
  let cancelReply: () => Promise<{ stamp: number; job: ApplyJobView | null }>;
  beforeEach(() => {
    setActivePinia(createPinia());
    cancelReply = async () => ({ stamp: 3, job: { ...job, state: 'cancelling' } });
    fake = installFakeApi(
      deskHandlers({
        'trades:list': () => ({ stamp: 1, trades: [trade('1', { timestamp: 5 }), trade('2', { timestamp: 1, needsAction: true, status: 'Action Required' })] }),
        'trades:openOffer': () => {
          throw new Refusal({ kind: 'network', message: 'offline' });
        },
        'apply:pause': ({ jobId }) => ({ stamp: 2, job: { ...job, jobId, state: 'paused' } }),
        'apply:cancel': () => cancelReply(),
      }),
    );
  });
  afterEach(() => fake.uninstall());

  it('trades: needs-action first, and the list follows trades:changed', async () => {
    const store = useTradesStore();
    store.start();
    await flush();
    expect(store.ordered.map((t) => t.trade_id)).toEqual(['2', '1']);
    expect(store.needingAction).toHaveLength(1);
    fake.emit('trades:changed', { stamp: 2, trades: [] });
    expect(store.needingAction).toHaveLength(0);
  });

  it('trades: a failed open offer becomes a worded notice, not an exception', async () => {
    await useTradesStore().openOffer('1');
    expect(useNoticesStore().notices[0]?.text).toMatch(/cannot be reached/);
  });

  it('apply: follows the job main holds and steers it by its ID', async () => {
    const store = useApplyStore();
    store.start();
    await flush();
    expect(store.active).toBe(false);
    fake.emit('apply:state', { stamp: 1, job });
    expect(store.active).toBe(true);
    await store.pause();
    expect(fake.callsTo('apply:pause')).toEqual([{ jobId: 'j1' }]);
    expect(store.job?.state).toBe('paused');
    fake.emit('apply:state', { stamp: 9, job: { ...job, state: 'done', itemsDone: 10, itemsLeft: 0 } });
    expect(store.active).toBe(false);
  });

  it('apply: a cancel whose reply arrives after the "cancelled" push leaves the screen on cancelled, not stuck', async () => {
    const store = useApplyStore();
    store.start();
    await flush();
    fake.emit('apply:state', { stamp: 2, job });
    // Main pushes "cancelled" (stamp 4) before its reply "cancelling" (stamp 3) is read.
    cancelReply = async () => {
      fake.emit('apply:state', { stamp: 4, job: { ...job, state: 'cancelled' } });
      return { stamp: 3, job: { ...job, state: 'cancelling' } };
    };
    await store.cancel();
    expect(store.job?.state).toBe('cancelled');
    expect(store.active).toBe(false);
  });

  it('activity: live entries join the list only when they match the filter', async () => {
    const store = useActivityStore();
    store.start();
    await flush();
    store.outcome = 'failed';
    fake.emit('activity:added', { stamp: 1, id: 1, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'ok', message: '' });
    fake.emit('activity:added', { stamp: 1, id: 2, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'failed', message: 'refused' });
    expect(store.entries.map((e) => e.id)).toEqual([2]);
  });

  it('activity: an entry pushed again with its outcome replaces itself, in place', async () => {
    const store = useActivityStore();
    store.start();
    await flush();
    fake.emit('activity:added', { stamp: 1, id: 1, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'sent', message: '' });
    fake.emit('activity:added', { stamp: 1, id: 2, at: 0, endpoint: 'delete_listing', itemCount: 3, outcome: 'sent', message: '' });
    fake.emit('activity:added', { stamp: 2, id: 1, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'done', message: '' });
    expect(store.entries.map((e) => [e.id, e.outcome])).toEqual([[2, 'sent'], [1, 'done']]);
    // Under a filter it no longer matches, it leaves the list.
    store.outcome = 'sent';
    fake.emit('activity:added', { stamp: 3, id: 2, at: 0, endpoint: 'delete_listing', itemCount: 3, outcome: 'failed', message: 'refused' });
    expect(store.entries.map((e) => e.id)).toEqual([1]);
  });

  it('app: main’s navigate requests land on the named screen and trade', async () => {
    const store = useAppStore();
    store.start();
    await flush();
    fake.emit('app:navigate', { view: 'trades', tradeId: '42' });
    expect(store.view).toBe('trades');
    expect(location.hash).toBe('#/trades');
    expect(store.focusTradeId).toBe('42');
    fake.emit('app:status', { stamp: 5, mode: 'live', online: false, version: '1', profile: 'p', serviceUrl: 'https://x', serviceProblem: null, reach: { state: 'reachable' as const, why: null, since: null } });
    expect(store.online).toBe(false);
    expect(store.sandbox).toBe(false);
  });
});
