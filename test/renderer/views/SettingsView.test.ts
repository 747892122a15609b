import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../../src-shared/contract.ts';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import SettingsView from '../../../src-renderer/src/views/SettingsView.vue';
import { deskHandlers, settings } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

describe('Settings screen', () => {
  let fake: FakeApi;
  let current: Settings;
  afterEach(() => fake.uninstall());

  async function mountSettings() {
    current = { ...settings };
    fake = installFakeApi(
      deskHandlers({
        'settings:get': () => current,
        'settings:update': (patch) => (current = { ...current, ...patch } as Settings),
      }),
    );
    const wrapper = mount(SettingsView, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useSettingsStore().load();
    await flushPromises();
    return wrapper;
  }

  const checkbox = (wrapper: Awaited<ReturnType<typeof mountSettings>>, text: string) =>
    wrapper.findAll('label').find((l) => l.text().startsWith(text))?.get('input');

  it('saves each toggle as it is changed, as a one-field patch', async () => {
    const wrapper = await mountSettings();
    await checkbox(wrapper, 'Heartbeat on')?.setValue(false);
    await checkbox(wrapper, 'Start at login')?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ heartbeatEnabled: false }, { startAtLogin: true }]);
  });

  it('offers heartbeat intervals of 5 to 9 minutes only', async () => {
    const wrapper = await mountSettings();
    const select = wrapper.get('select[aria-label="Heartbeat interval in minutes"]');
    expect(select.findAll('option').map((o) => o.attributes('value'))).toEqual(['5', '6', '7', '8', '9']);
    await select.setValue('5');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ heartbeatIntervalMinutes: 5 }]);
  });

  it('refuses a trade poll interval outside 60–3600 s without sending it', async () => {
    const wrapper = await mountSettings();
    const input = wrapper.get('input[aria-label="Trade poll interval in seconds"]');
    await input.setValue('30');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([]);
    expect((input.element as HTMLInputElement).value).toBe('60');
    await input.setValue('120');
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ tradePollSeconds: 120 }]);
  });

  it('sets the theme: system, light or dark', async () => {
    const wrapper = await mountSettings();
    const radios = wrapper.findAll('input[name=theme]');
    expect(radios.map((r) => (r.element as HTMLInputElement).checked)).toEqual([true, false, false]);
    await radios[2]?.setValue(true);
    await flushPromises();
    expect(fake.callsTo('settings:update')).toEqual([{ theme: 'dark' }]);
  });
});
