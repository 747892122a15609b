import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppStatus, BalanceView, HeartbeatView, KeyStatus, Settings } from '../../../src-shared/contract.ts';
import App from '../../../src-renderer/src/App.vue';
import { VIEWS } from '../../../src-renderer/src/lib/nav.ts';
import { loadScreen } from '../../../src-renderer/src/screens.ts';
import { deskHandlers, accounts, settings } from '../desk-data.ts';
import { installFakeApi, Refusal, type FakeApi, type Handlers } from '../fake-api.ts';

/**
 * Overview tells the truth within seconds: no key, a service that
 * cannot be read, a clock that is off, an action waiting or failing; and it
 * never shows the sandbox's figures in live mode. Mounted in the whole shell,
 * so the banners are checked too.
 */
const live: AppStatus = { stamp: 1, mode: 'live', online: true, version: '0.1.0', profile: 'default', serviceUrl: 'https://api.liquid.tf', serviceProblem: null, reach: { state: 'unknown', why: null, since: null } };
const noKey: KeyStatus = { stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true };
const goodKey: KeyStatus = { stamp: 1, set: true, last4: '1234', state: 'valid', keychainAvailable: true };
const heartbeat: HeartbeatView = { stamp: 1, status: 'active', refreshAt: null, lastBeatAt: null, nextBeatAt: null, accounts: [], lastError: null };

describe('Overview', () => {
  // Every screen's code in, as main.ts has the first screen's before it builds the shell.
  beforeAll(() => Promise.all(VIEWS.map((v) => loadScreen(v.id))));
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    document.body.innerHTML = '';
    history.replaceState(null, '', '#/overview');
  });

  async function mountOverview(over: Handlers = {}) {
    history.replaceState(null, '', '#/overview');
    fake = installFakeApi(deskHandlers({ 'key:status': () => goodKey, ...over }));
    const wrapper = mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    return wrapper;
  }

  it('in live mode without a key says "No API key set" with the way to add one, and never "rejected"', async () => {
    const wrapper = await mountOverview({
      'app:status': () => live,
      'key:status': () => noKey,
      'heartbeat:state': () => ({ ...heartbeat, status: 'lapsed', lastError: { kind: 'auth', message: 'No API key is set', endpoint: 'set_user_agent' } }),
      'scheduler:state': () => ({ stamp: 1, blocked: 'auth', used: 0, limit: 80, pausedUntil: null }),
      'accounts:list': () => ({ stamp: 1, main: null, linked: [], readAt: null, read: { phase: 'retrying', nextAttemptAt: Date.now() + 40_000, lastError: { kind: 'auth', message: 'No API key is set' }, failures: 1, readAt: null } }),
    });
    const text = wrapper.text();
    expect(wrapper.get('[data-testid=no-key-banner]').text()).toContain('No API key set');
    expect(wrapper.get('[data-testid=automation-no-key]').text()).toContain('No API key set');
    expect(text).not.toMatch(/rejected|refused/i);
    expect(wrapper.findAll('button').find((b) => b.text() === 'Beat now')?.attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid=no-key-banner] button').trigger('click');
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Settings');
  });

  it('warns when the computer’s clock is more than a minute off the service’s, and not before', async () => {
    let view: HeartbeatView = { ...heartbeat, clockOffsetMs: -8 * 60_000 };
    const wrapper = await mountOverview({ 'heartbeat:state': () => view });
    expect(wrapper.get('[data-testid=clock-warning]').text()).toContain('Your computer’s clock is 8 min ahead of the service’s; the heartbeat allows for it');
    view = { ...heartbeat, stamp: 2, clockOffsetMs: 11 * 60_000 };
    fake.emit('heartbeat:state', view);
    await flushPromises();
    expect(wrapper.get('[data-testid=clock-warning]').text()).toContain('11 min behind the service’s');
    fake.emit('heartbeat:state', { ...heartbeat, stamp: 3, clockOffsetMs: 30_000 });
    await flushPromises();
    expect(wrapper.find('[data-testid=clock-warning]').exists()).toBe(false);
  });

  it('says the service asked for a wait, when it ends, and that the desk waits at most 15 min', async () => {
    const wrapper = await mountOverview({
      'scheduler:state': () => ({ stamp: 1, blocked: null, used: 3, limit: 80, pausedUntil: Date.now() + 14 * 60_000 }),
    });
    expect(wrapper.text()).toMatch(/The service asked us to wait: resuming in [^.]+ \(the desk waits at most 15 min\)\. Nothing is lost\./);
  });

  it('says why the balance and the accounts could not be read, and when they are tried again', async () => {
    const next = Date.now() + 40_500;
    const wrapper = await mountOverview({
      'balance:get': () => ({ stamp: 1, reading: null, read: { phase: 'retrying', nextAttemptAt: next, lastError: { kind: 'server', message: '503', endpoint: 'get_balance', status: 503 }, failures: 2, readAt: null } }),
      'accounts:list': () => ({ stamp: 1, main: null, linked: [], readAt: null, read: { phase: 'retrying', nextAttemptAt: next, lastError: { kind: 'network', message: 'no answer' }, failures: 1, readAt: null } }),
    });
    const lines = wrapper.findAll('[data-testid=read-state]').map((l) => l.text());
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Reading the balance… retrying in 4\d s: The service had a problem/);
    expect(lines[1]).toMatch(/^Reading the accounts list… retrying in 4\d s: The service cannot be reached/);
    expect(wrapper.get('[data-testid=balance-empty]').text()).toBe('Not read yet.');
  });

  it('says what Beat now waits for, and after a failure why, with Try again that works', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const wrapper = await mountOverview({
      'heartbeat:beatNow': async () => {
        calls += 1;
        if (calls === 1) {
          await new Promise<void>((resolve) => (release = resolve));
          throw new Refusal({ kind: 'network', message: 'set_user_agent: no answer within 30 s (the service did not answer)', endpoint: 'set_user_agent' });
        }
        return { ...heartbeat, stamp: 5, lastBeatAt: Date.now() };
      },
    });
    const beat = () => wrapper.findAll('button').find((b) => /Beat now|Beating/.test(b.text()));
    await beat()?.trigger('click');
    await flushPromises();
    expect(beat()?.text()).toBe('Beating…');
    expect(wrapper.text()).toContain('a beat may wait for its once-a-minute slot, and gives up after 30 s');
    release();
    await flushPromises();
    expect(beat()?.attributes('disabled')).toBeUndefined();
    const problem = wrapper.get('.problem');
    expect(problem.text()).toContain('The service cannot be reached');
    await problem.get('button').trigger('click');
    await flushPromises();
    expect(calls).toBe(2);
    expect(wrapper.find('.problem').exists()).toBe(false);
  });

  it('offers Try again when the data file was busy, and the second try refreshes the balance', async () => {
    let calls = 0;
    const wrapper = await mountOverview({
      'balance:refresh': (): BalanceView => {
        calls += 1;
        if (calls === 1) throw new Refusal({ kind: 'busy', message: 'The desk’s data file is in use by another task or program, so nothing was changed' });
        return { stamp: 9, reading: { balance: 12_345, pending_balance: 0, readAt: Date.now() } };
      },
    });
    await wrapper.findAll('button').find((b) => b.text() === 'Refresh')?.trigger('click');
    await flushPromises();
    const problem = wrapper.get('.problem');
    expect(problem.text()).toContain('in use by another task or program');
    await problem.get('button').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid=balance]').text()).toBe('$123.45');
  });

  it('shows no sandbox balance once the desk is live, whatever arrives late', async () => {
    const wrapper = await mountOverview({
      'app:status': () => ({ ...live, mode: 'sandbox', serviceUrl: 'http://127.0.0.1:5' }),
      'balance:get': () => ({ stamp: 3, reading: { balance: 99_999, pending_balance: 0, readAt: Date.now() } }),
    });
    expect(wrapper.get('[data-testid=balance]').text()).toBe('$999.99');
    // The switch: main pushes the live workspace's state, then an older sandbox answer arrives.
    fake.emit('app:status', { ...live, stamp: 10 });
    fake.emit('balance:changed', { stamp: 11, reading: null, read: { phase: 'reading', nextAttemptAt: null, lastError: null, failures: 0, readAt: null } });
    fake.emit('balance:changed', { stamp: 4, reading: { balance: 99_999, pending_balance: 0, readAt: Date.now() } });
    await flushPromises();
    expect(wrapper.find('[data-testid=balance]').exists()).toBe(false);
    expect(wrapper.text()).not.toContain('$999.99');
    expect(wrapper.text()).toContain('Reading the balance…');
  });

  it('shows the guided start on a fresh profile; “Hide the guide” saves that', async () => {
    let current: Settings = { ...settings, guideDismissed: false };
    const wrapper = await mountOverview({
      'settings:get': () => current,
      'settings:update': (patch) => (current = { ...current, ...patch, stamp: current.stamp + 1 } as Settings),
    });
    expect(wrapper.find('[data-testid=guided-start]').exists()).toBe(true);
    await wrapper.findAll('button').find((b) => b.text() === 'Hide the guide')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ guideDismissed: true }]);
    expect(wrapper.find('[data-testid=guided-start]').exists()).toBe(false);
    expect(wrapper.find('[data-testid=main-account]').text()).toBe(accounts.main?.id64);
  });

  it('says the store is restarting while its worker starts again, then that it restarted, for a few seconds', async () => {
    const wrapper = await mountOverview({ 'app:status': () => live });
    expect(wrapper.find('[data-testid=store-banner]').exists()).toBe(false);
    fake.emit('app:status', { ...live, stamp: live.stamp + 1, store: 'restarting' });
    await flushPromises();
    expect(wrapper.get('[data-testid=store-banner]').text()).toContain('Restarting the store');
    expect(wrapper.get('[data-testid=store-banner]').text()).toContain('nothing stored is lost');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // A restart takes a fraction of a second: the trader still gets to read that it happened.
      fake.emit('app:status', { ...live, stamp: live.stamp + 2 });
      await flushPromises();
      expect(wrapper.get('[data-testid=store-banner]').text()).toContain('The store restarted');
      vi.advanceTimersByTime(3_900);
      await flushPromises();
      expect(wrapper.find('[data-testid=store-banner]').exists()).toBe(true);
      vi.advanceTimersByTime(200);
      await flushPromises();
      expect(wrapper.find('[data-testid=store-banner]').exists()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('while the service cannot be reached, says trades are not known rather than “nothing needs you”', async () => {
    const wrapper = await mountOverview({
      'app:status': () => ({ ...live, reach: { state: 'unreachable', why: 'nothing answers at that address', since: Date.now() } }),
    });
    expect(wrapper.get('[data-testid=trades-unknown]').text()).toContain('Not known while the service cannot be reached');
    expect(wrapper.text()).not.toContain('Nothing needs you right now');
    expect(wrapper.get('[data-testid=unreachable-banner]').text()).toContain('https://api.liquid.tf: nothing answers at that address');
  });

  it('with no key while the mark still stands, says it will lapse rather than that nothing is marked', async () => {
    const wrapper = await mountOverview({
      'app:status': () => live,
      'key:status': () => noKey,
      'heartbeat:state': () => ({ ...heartbeat, status: 'active', refreshAt: Date.now() + 400_000, lastBeatAt: Date.now() - 200_000 }),
    });
    expect(wrapper.get('[data-testid=automation-no-key]').text()).toContain('the mark is not renewed, so it lapses when the countdown ends');
  });
});
