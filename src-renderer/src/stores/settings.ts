import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ChannelInput, Settings } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';

export type SettingsPatch = ChannelInput<'settings:update'>;

/** The app's settings as main holds them; every change goes through main. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings | null>(null);
  const saving = ref(false);
  let started = false;

  async function load(): Promise<void> {
    settings.value = await call('settings:get', {});
  }

  async function update(patch: SettingsPatch): Promise<void> {
    saving.value = true;
    try {
      settings.value = await call('settings:update', patch);
    } finally {
      saving.value = false;
    }
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('settings:changed', (s) => (settings.value = s));
    void load().catch(() => undefined);
  }

  return { settings, saving, load, update, start };
});
