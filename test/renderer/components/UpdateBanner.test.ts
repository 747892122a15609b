import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import UpdateBanner from '../../../src-renderer/src/components/UpdateBanner.vue';
import type { UpdateView } from '../../../src-shared/contract.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const view = (over: Partial<UpdateView>): UpdateView => ({ state: 'idle', version: null, percent: null, restartPending: false, message: null, checkedAt: null, ...over });

describe('update banner', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('appears when an update is ready, restarts on click, and says when the restart waits for an apply', async () => {
    let restarts = 0;
    fake = installFakeApi({
      'updates:state': () => view({}),
      'updates:restart': () => {
        restarts++;
        return view({ state: 'ready', version: '0.2.0', restartPending: true });
      },
    });
    const wrapper = mount(UpdateBanner, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await flushPromises();
    expect(wrapper.find('[data-testid=update-banner]').exists()).toBe(false);
    fake.emit('updates:state', view({ state: 'ready', version: '0.2.0', percent: 100 }));
    await flushPromises();
    expect(wrapper.text()).toContain('Version 0.2.0 is downloaded and checked.');
    await wrapper.get('button').trigger('click');
    await flushPromises();
    expect(restarts).toBe(1);
    expect(wrapper.text()).toContain('installs when the running apply ends');
    expect(wrapper.find('button').exists()).toBe(false);
  });
});
