import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SupportSection from '../../../src-renderer/src/components/SupportSection.vue';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import type { UpdateView } from '../../../src-shared/contract.ts';
import { settings } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const view = (over: Partial<UpdateView>): UpdateView => ({ state: 'idle', version: null, percent: null, restartPending: false, message: null, checkedAt: null, ...over });

describe('Settings: support and updates', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  it('says an update was refused, which version and why, as main reported it', async () => {
    fake = installFakeApi({ 'settings:get': () => settings, 'updates:state': () => view({ state: 'idle', checkedAt: 1 }) });
    const wrapper = mount(SupportSection, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useSettingsStore().load();
    await flushPromises();
    expect(wrapper.get('[data-testid=update-status]').text()).toMatch(/^Up to date/);

    fake.emit('updates:state', view({ state: 'refused', version: '0.2.0', message: 'it carries no signature from the publisher.' }));
    await flushPromises();
    expect(wrapper.get('[data-testid=update-status]').text()).toBe('Version 0.2.0 was refused and not installed: it carries no signature from the publisher.');
    // Check now stays available: the feed may be fixed.
    expect(wrapper.get('button').attributes('disabled')).toBeUndefined();
  });
});
