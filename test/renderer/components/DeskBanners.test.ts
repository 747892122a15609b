import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DeskBanners from '../../../src-renderer/src/components/DeskBanners.vue';
import { useAppStore } from '../../../src-renderer/src/stores/app.ts';
import { deskHandlers } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

/** Which service the desk works on is said on every screen, live as plainly as sandbox. */
describe('the mode banner', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  async function banners(mode: 'live' | 'sandbox') {
    const status = {
      stamp: 1, mode, online: true, version: '0.1.0', profile: 'default', serviceProblem: null,
      serviceUrl: mode === 'live' ? 'https://api.liquid.tf' : 'http://127.0.0.1:1', reach: { state: 'reachable' as const, why: null, since: null },
    };
    fake = installFakeApi(deskHandlers({ 'app:status': () => status }));
    const wrapper = mount(DeskBanners, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    useAppStore().start();
    await flushPromises();
    return wrapper;
  }

  it('says live, and where changes go, when the desk is live', async () => {
    const wrapper = await banners('live');
    const live = wrapper.get('[data-testid=live-banner]');
    expect(live.text()).toMatch(/^Live/);
    expect(live.text()).toContain('real marketplace (https://api.liquid.tf)');
    expect(wrapper.find('[data-testid=sandbox-banner]').exists()).toBe(false);
  });

  it('says sandbox, and not live, in sandbox mode', async () => {
    const wrapper = await banners('sandbox');
    expect(wrapper.find('[data-testid=live-banner]').exists()).toBe(false);
    expect(wrapper.get('[data-testid=sandbox-banner]').text()).toContain('Sandbox mode');
  });
});
