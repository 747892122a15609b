import { createEmitter, type Unsubscribe } from '../events.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import { readSettings, readSettingsSaying, settingsPatchSchema, type SettingNotKept, type Settings, type SettingsPatch } from './settings.ts';
import { z } from 'zod';

const STORAGE_KEY = 'app.settings';

export interface SettingsService {
  get(): Settings;
  /** Validates and stores a change; the whole result is announced to listeners. */
  update(patch: SettingsPatch): Settings;
  on(event: 'changed', listener: (settings: Settings, previous: Settings) => void): Unsubscribe;
  /** Saved settings that no longer passed when the profile was opened (their defaults are used), until changed. */
  notKept(): readonly SettingNotKept[];
}

/**
 * The trader's settings, kept in the profile database and read back
 * leniently. A profile that saved settings before the guided start existed
 * belongs to a trader who already found their way: the guide stays away.
 */
export function createSettingsService(repo: SettingsRepo, initial: SettingsPatch = {}): SettingsService {
  const events = createEmitter<{ changed: [Settings, Settings] }>();
  const stored = repo.get(STORAGE_KEY, z.record(z.string(), z.unknown()), {});
  const usedBefore = Object.keys(stored).length > 0 && !('guideDismissed' in stored);
  const opened = readSettingsSaying({ ...(usedBefore ? { guideDismissed: true } : {}), ...stored, ...initial });
  let current = opened.settings;
  let notKept = opened.notKept;

  return {
    get: () => current,
    update(patch) {
      const checked = settingsPatchSchema.parse(patch);
      // A key sent without a value changes nothing: spread as is, it would reset that setting to its default.
      const named = Object.fromEntries(Object.entries(checked).filter(([, value]) => value !== undefined));
      const previous = current;
      current = readSettings({ ...current, ...named });
      notKept = notKept.filter((n) => !(n.key in named));
      repo.set(STORAGE_KEY, current);
      events.emit('changed', [current, previous]);
      return current;
    },
    on: (event, listener) => events.on(event, ([next, previous]) => listener(next, previous)),
    notKept: () => notKept,
  };
}
