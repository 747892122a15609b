import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useActivityStore } from '../../../src-renderer/src/stores/activity.ts';
import { useApplyStore } from '../../../src-renderer/src/stores/apply.ts';
import { useAppStore } from '../../../src-renderer/src/stores/app.ts';
import { useLedgerStore } from '../../../src-renderer/src/stores/ledger.ts';
import { useNoticesStore } from '../../../src-renderer/src/stores/notices.ts';
import { useTradesStore } from '../../../src-renderer/src/stores/trades.ts';
import { deskHandlers, listing, trade } from '../desk-data.ts';
import { flush, installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

/** The stores that mirror main: they load at start and follow main's events. */
describe('stores mirroring main', () => {
  let fake: FakeApi;
  let listingsCalls = 0;
  beforeEach(() => {
    setActivePinia(createPinia());
    listingsCalls = 0;
    fake = installFakeApi(
      deskHandlers({
        'listings:list': () => {
          listingsCalls++;
          return [listing(1), listing(2)];
        },
        'trades:list': () => [trade('1', { timestamp: 5 }), trade('2', { timestamp: 1, needsAction: true, status: 'Action Required' })],
        'trades:openOffer': () => {
          throw new Refusal({ kind: 'network', message: 'offline' });
        },
        'apply:pause': ({ jobId }) => ({ ...progress, jobId, state: 'paused' }),
      }),
    );
  });
  afterEach(() => fake.uninstall());

  const progress = {
    jobId: 'j1', draftId: 'd1', state: 'running' as const, itemsTotal: 10, itemsDone: 2, itemsFailed: 0, itemsUnknown: 0,
    itemsLeft: 8, requestsSent: 1, etaMs: 1000, startedAt: 0,
  };

  it('trades: needs-action first, and the list follows trades:changed', async () => {
    const store = useTradesStore();
    store.start();
    await flush();
    expect(store.ordered.map((t) => t.trade_id)).toEqual(['2', '1']);
    expect(store.needingAction).toHaveLength(1);
    fake.emit('trades:changed', []);
    expect(store.needingAction).toHaveLength(0);
  });

  it('trades: a failed open offer becomes a worded notice, not an exception', async () => {
    await useTradesStore().openOffer('1');
    expect(useNoticesStore().notices[0]?.text).toMatch(/cannot be reached/);
  });

  it('ledger: reloads only the part main says changed', async () => {
    const store = useLedgerStore();
    store.start();
    await flush();
    expect(store.listings).toHaveLength(2);
    fake.emit('ledger:changed', { listings: false, buyOrders: true });
    await flush();
    expect(listingsCalls).toBe(1);
    fake.emit('ledger:changed', { listings: true, buyOrders: false });
    await flush();
    expect(listingsCalls).toBe(2);
  });

  it('apply: follows progress events and steers the job by its ID', async () => {
    const store = useApplyStore();
    store.start();
    await flush();
    expect(store.active).toBe(false);
    fake.emit('apply:progress', progress);
    expect(store.active).toBe(true);
    await store.pause();
    expect(fake.callsTo('apply:pause')).toEqual([{ jobId: 'j1' }]);
    expect(store.progress?.state).toBe('paused');
    fake.emit('apply:progress', { ...progress, state: 'done', itemsDone: 10, itemsLeft: 0 });
    expect(store.active).toBe(false);
  });

  it('activity: live entries join the list only when they match the filter', async () => {
    const store = useActivityStore();
    store.start();
    await flush();
    store.outcome = 'failed';
    fake.emit('activity:added', { id: 1, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'ok', message: '' });
    fake.emit('activity:added', { id: 2, at: 0, endpoint: 'edit_listing', itemCount: 100, outcome: 'failed', message: 'refused' });
    expect(store.entries.map((e) => e.id)).toEqual([2]);
  });

  it('app: main’s navigate requests land on the named screen and trade', async () => {
    const store = useAppStore();
    store.start();
    await flush();
    fake.emit('app:navigate', { view: 'trades', tradeId: '42' });
    expect(store.view).toBe('trades');
    expect(location.hash).toBe('#/trades');
    expect(store.focusTradeId).toBe('42');
    fake.emit('app:status', { mode: 'live', online: false, version: '1', profile: 'p', serviceUrl: 'https://x' });
    expect(store.online).toBe(false);
    expect(store.sandbox).toBe(false);
  });
});
