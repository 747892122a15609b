import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppStatus, KeyStatus, KeyTestResult, Settings } from '../../../src-shared/contract.ts';
import GuidedStart from '../../../src-renderer/src/components/GuidedStart.vue';
import { useAppStore } from '../../../src-renderer/src/stores/app.ts';
import { useKeyStore } from '../../../src-renderer/src/stores/key.ts';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import { deskHandlers, settings } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

/** The guided start: what sandbox mode is; where a key comes from, paste, tested, go live, done. */
const KEY = 'lq_9f8e7d6c5b4a1234';
const accepted: KeyTestResult = {
  outcome: 'accepted', serviceUrl: 'https://api.liquid.tf', mode: 'sandbox', last4: '1234', testedAt: Date.now(), answeredAt: Date.now(),
  mainAccount: '76561198000000001', linkedAccounts: [], balance: { balance: 5000, pending_balance: 0 }, problem: null, unreachableWhy: null,
};

describe('guided start', () => {
  let fake: FakeApi;
  let current: Settings;
  let key: KeyStatus;
  afterEach(() => fake.uninstall());

  async function mountGuide(mode: 'sandbox' | 'live' = 'sandbox') {
    current = { ...settings, mode, serviceUrl: 'https://api.liquid.tf', guideDismissed: false };
    key = { stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true };
    const app = (): AppStatus => ({ stamp: current.stamp, mode: current.mode, online: true, version: 't', profile: 'default', serviceUrl: current.mode === 'live' ? current.serviceUrl : 'http://127.0.0.1:5', serviceProblem: null, reach: { state: 'unknown', why: null, since: null } });
    fake = installFakeApi(deskHandlers({
      'app:status': app,
      'settings:get': () => current,
      'settings:update': (patch) => {
        current = { ...current, ...patch, stamp: current.stamp + 1 } as Settings;
        fake.emit('app:status', app());
        return current;
      },
      'key:status': () => key,
      'key:set': ({ key: typed }) => (key = { stamp: 2, set: true, last4: typed.slice(-4), state: 'unverified', keychainAvailable: true }),
      'key:test': () => (key = { ...key, stamp: 3, state: 'valid', test: accepted }),
    }));
    const wrapper = mount(GuidedStart, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await Promise.all([useSettingsStore().load(), useKeyStore().load(), useAppStore().load()]);
    await flushPromises();
    return wrapper;
  }

  const button = (wrapper: Awaited<ReturnType<typeof mountGuide>>, text: string) => wrapper.findAll('button').find((b) => b.text() === text);

  it('says what sandbox mode is, and exploring puts the guide away', async () => {
    const wrapper = await mountGuide('sandbox');
    const sandbox = wrapper.get('[aria-labelledby=guide-sandbox]').text();
    expect(sandbox).toContain('built-in simulator');
    expect(sandbox).toContain('Nothing you do there reaches the real marketplace');
    expect(sandbox).toContain('The desk is in sandbox mode now.');
    await button(wrapper, 'Explore the sandbox')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ mode: 'sandbox', guideDismissed: true }]);
  });

  it('goes live: where the key comes from, paste, tested with what it found, go live, done', async () => {
    const wrapper = await mountGuide('sandbox');
    const live = wrapper.get('[aria-labelledby=guide-live]');
    expect(live.text()).toContain('liquid.tf');
    expect(live.text()).toContain('Dashboard → Settings → API');
    expect(live.text()).toContain('docs.liquid.tf');
    expect(button(wrapper, 'Go live')?.attributes('disabled')).toBeDefined();

    await wrapper.get('input#guide-api-key').setValue(KEY);
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('key:set')).toEqual([{ key: KEY }]);
    expect(fake.callsTo('key:test')).toHaveLength(1);
    expect(wrapper.get('[data-testid=key-test]').text()).toContain('works: api.liquid.tf accepted it');
    expect(wrapper.get('[data-testid=key-test]').text()).toContain('Account 76561198000000001');

    await button(wrapper, 'Go live')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ mode: 'live' }]);
    expect(live.text()).toContain('The desk is live on api.liquid.tf.');
    await button(wrapper, 'Done')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ mode: 'live' }, { guideDismissed: true }]);
    expect(wrapper.html()).not.toContain('9f8e7d6c');
  });
});
