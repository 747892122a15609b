import { createTestingPinia } from '@pinia/testing';
import { enableAutoUnmount, flushPromises, mount } from '@vue/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import App from '../../src-renderer/src/App.vue';
import { VIEWS } from '../../src-renderer/src/lib/nav.ts';
import { loadScreen } from '../../src-renderer/src/screens.ts';
import { deskHandlers, listing, pagesOf, settings } from './desk-data.ts';
import { installFakeApi, type FakeApi } from './fake-api.ts';

describe('the desk shell', () => {
  // Every screen's code in, as main.ts has the first screen's before it builds the shell.
  beforeAll(() => Promise.all(VIEWS.map((v) => loadScreen(v.id))));
  // A shell left mounted would go on asking the next test's bridge.
  enableAutoUnmount(afterEach);
  let fake: FakeApi;
  afterEach(() => {
    fake.uninstall();
    document.body.innerHTML = '';
    delete document.documentElement.dataset.theme;
    history.replaceState(null, '', '#/overview');
  });

  async function mountApp(online = true) {
    fake = installFakeApi(
      deskHandlers({
        'app:status': () => ({ stamp: 1, mode: 'sandbox', online, version: '0.1.0', profile: 'default', serviceUrl: 'http://127.0.0.1:9', serviceProblem: null, reach: { state: 'reachable' as const, why: null, since: null } }),
        'settings:get': () => ({ ...settings, theme: 'dark' }),
      }),
    );
    const wrapper = mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    return wrapper;
  }

  const press = (init: KeyboardEventInit & { code?: string }) => window.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));

  it('shows the sandbox banner in sandbox mode and the offline banner when offline', async () => {
    const wrapper = await mountApp(false);
    expect(wrapper.find('[data-testid=sandbox-banner]').exists()).toBe(true);
    expect(wrapper.get('[data-testid=offline-banner]').text()).toContain('Offline');
    fake.emit('app:status', { stamp: 2, mode: 'live', online: true, version: '0.1.0', profile: 'default', serviceUrl: 'https://x', serviceProblem: null, reach: { state: 'reachable' as const, why: null, since: null } });
    await flushPromises();
    expect(wrapper.find('[data-testid=sandbox-banner]').exists()).toBe(false);
    expect(wrapper.find('[data-testid=offline-banner]').exists()).toBe(false);
  });

  it('navigates with Alt+1..9 and keeps the screen in the hash', async () => {
    const wrapper = await mountApp();
    press({ key: '4', code: 'Digit4', altKey: true });
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Trades');
    expect(location.hash).toBe('#/trades');
    press({ key: '9', code: 'Digit9', altKey: true });
    await flushPromises();
    expect(wrapper.get('h1').text()).toBe('Settings');
    expect(wrapper.get('[aria-current=page]').text()).toContain('Settings');
  });

  it('focuses the screen’s search box with Ctrl+F or /', async () => {
    const wrapper = await mountApp();
    press({ key: '2', code: 'Digit2', altKey: true });
    await flushPromises();
    press({ key: '/' });
    expect(document.activeElement).toBe(wrapper.get('[data-shortcut=search]').element);
    (document.activeElement as HTMLElement).blur();
    press({ key: 'f', ctrlKey: true });
    expect(document.activeElement).toBe(wrapper.get('[data-shortcut=search]').element);
  });

  it('applies the chosen theme, and leaves “system” to prefers-color-scheme', async () => {
    await mountApp();
    expect(document.documentElement.dataset.theme).toBe('dark');
    fake.emit('settings:changed', { ...settings, stamp: 2, theme: 'system' });
    await flushPromises();
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('names every screen button as a button', async () => {
    const wrapper = await mountApp();
    const nav = wrapper.get('nav[aria-label=Screens]');
    expect(nav.findAll('button')).toHaveLength(10);
  });

  it('offers the way to go live from the sandbox banner: it opens the guided start on Overview', async () => {
    history.replaceState(null, '', '#/listings');
    let current = { ...settings, guideDismissed: true };
    fake = installFakeApi(deskHandlers({
      'settings:get': () => current,
      'settings:update': (patch) => (current = { ...current, ...patch, stamp: current.stamp + 1 }),
    }));
    const wrapper = mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    await wrapper.get('[data-testid=sandbox-banner] button').trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ guideDismissed: false }]);
    expect(wrapper.get('h1').text()).toBe('Overview');
    expect(wrapper.find('[data-testid=guided-start]').exists()).toBe(true);
    expect(wrapper.find('[data-testid=sandbox-banner] button').exists()).toBe(false);
  });

  it('on Listings asks for the first rows before anything else, and the rest of the desk once they are painted', async () => {
    history.replaceState(null, '', '#/listings');
    let answerPage: () => void = () => undefined;
    const page = pagesOf([listing(1)]);
    fake = installFakeApi(deskHandlers({
      'ledger:page': (input) => new Promise((resolve) => (answerPage = () => resolve(page(input)))),
    }));
    const frames: FrameRequestCallback[] = [];
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback));
    try {
      const wrapper = mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
      await flushPromises();
      const asked = () => fake.calls.map((c) => c.channel);
      // The rows first, with the accounts that name them; then what the first frame shows (theme, banners).
      expect(asked().slice(0, 2)).toEqual(['ledger:page', 'accounts:list']);
      expect(asked()).toEqual(expect.arrayContaining(['settings:get', 'app:status', 'key:status']));
      const later = ['trades:list', 'drafts:list', 'heartbeat:state', 'scheduler:state', 'balance:get', 'apply:state', 'activity:list', 'updates:state'];
      expect(asked().filter((c) => later.includes(c))).toEqual([]);
      answerPage();
      await flushPromises();
      expect(wrapper.findAll('[role=row][data-key]')).toHaveLength(1);
      expect(asked().filter((c) => later.includes(c))).toEqual([]);
      // The frame that shows the rows is painted: the rest of the desk asks.
      for (const callback of frames.splice(0)) callback(0);
      await flushPromises();
      await new Promise((r) => setTimeout(r, 0));
      await flushPromises();
      expect(asked()).toEqual(expect.arrayContaining(later));
    } finally {
      raf.mockRestore();
    }
  });

  it('on Buy orders asks for the balance its head shows with the first rows, not after them', async () => {
    history.replaceState(null, '', '#/buy-orders');
    fake = installFakeApi(deskHandlers({ 'ledger:page': () => new Promise(() => undefined) }));
    const raf = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
      await flushPromises();
      const asked = fake.calls.map((c) => c.channel);
      expect(asked.slice(0, 3)).toEqual(['ledger:page', 'accounts:list', 'balance:get']);
      expect(asked).not.toContain('trades:list');
    } finally {
      raf.mockRestore();
    }
  });

  it('says the keychain cannot give the key in live mode, instead of “no key”', async () => {
    fake = installFakeApi(deskHandlers({
      'app:status': () => ({ stamp: 1, mode: 'live', online: true, version: '0.1.0', profile: 'default', serviceUrl: 'https://api.liquid.tf', serviceProblem: null, reach: { state: 'unknown' as const, why: null, since: null } }),
      'key:status': () => ({ stamp: 1, set: false, last4: null, state: 'none' as const, keychainAvailable: false, keychainProblem: 'locked' as const }),
    }));
    const wrapper = mount(App, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] }, attachTo: document.body });
    await flushPromises();
    expect(wrapper.get('[data-testid=keychain-banner]').text()).toContain('cannot be read from the system keychain');
    expect(wrapper.find('[data-testid=no-key-banner]').exists()).toBe(false);
  });
});
