import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ChannelInput } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';
import { createMirror } from './mirror.ts';

export type SettingsPatch = ChannelInput<'settings:update'>;

/** The app's settings as main holds them; every change goes through main, which may refuse it. */
export const useSettingsStore = defineStore('settings', () => {
  const mirror = createMirror(() => call('settings:get', {}), 'settings:changed');
  const saving = ref(false);
  let started = false;

  /** Throws DeskError (an unusable URL, a switch that failed) for the form to word. */
  async function update(patch: SettingsPatch): Promise<void> {
    saving.value = true;
    try {
      mirror.accept(await call('settings:update', patch));
    } finally {
      saving.value = false;
    }
  }

  /** The guided start, shown on Overview until the trader puts it away (a saved setting). Throws DeskError. */
  const showGuide = (shown: boolean) => update({ guideDismissed: !shown });

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { settings: mirror.value, saving, load: mirror.load, update, showGuide, start };
});

/** How exports are written, as the trader chose in Settings (comma until the settings are read). */
export const csvFormat = () => useSettingsStore().settings?.csvFormat ?? 'comma';
