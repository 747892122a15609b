import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, settingsPatchSchema } from '../../../src-main/core/settings/settings.ts';
import { createSettingsService } from '../../../src-main/core/settings/settings-service.ts';
import { tempStore } from '../store/temp-store.ts';

describe('settings', () => {
  it('starts from defaults that pass their own rules', () => {
    expect(readSettings({})).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid stored values and drops broken ones to their default', () => {
    const read = readSettings({ theme: 'dark', heartbeatIntervalMinutes: 30, tradePollSeconds: 120, unknown: 1 });
    expect(read.theme).toBe('dark');
    expect(read.tradePollSeconds).toBe(120);
    expect(read.heartbeatIntervalMinutes).toBe(DEFAULT_SETTINGS.heartbeatIntervalMinutes);
    expect(read).not.toHaveProperty('unknown');
  });

  it('bounds the heartbeat to 5–9 minutes and trade polls to the 1/min limit', () => {
    expect(settingsPatchSchema.safeParse({ heartbeatIntervalMinutes: 4 }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ heartbeatIntervalMinutes: 9 }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ tradePollSeconds: 30 }).success).toBe(false);
  });

  it('leaves a setting alone when the patch names it without a value (the bridge carries undefined)', () => {
    const t = tempStore();
    try {
      const service = createSettingsService(t.repos.settings, { mode: 'live', serviceUrl: 'https://market.example' });
      const after = service.update({ mode: undefined, serviceUrl: undefined, theme: 'dark' });
      expect(after).toMatchObject({ mode: 'live', serviceUrl: 'https://market.example', theme: 'dark' });
    } finally {
      t.dispose();
    }
  });
});

describe('settings for the first run', () => {
  it('goes live to the real service by default: https://api.liquid.tf', () => {
    expect(DEFAULT_SETTINGS.serviceUrl).toBe('https://api.liquid.tf');
    expect(DEFAULT_SETTINGS.mode).toBe('sandbox');
  });

  it('reads the old placeholder URL, which never answered, as not chosen: the live default replaces it', () => {
    expect(readSettings({ serviceUrl: 'https://marketplace.invalid', theme: 'dark' })).toMatchObject({ serviceUrl: 'https://api.liquid.tf', theme: 'dark' });
    expect(readSettings({ serviceUrl: 'https://market.example' }).serviceUrl).toBe('https://market.example');
  });

  it('shows the guided start on a fresh profile and keeps it away once dismissed, across a restart', () => {
    const t = tempStore();
    try {
      const first = createSettingsService(t.repos.settings);
      expect(first.get().guideDismissed).toBe(false);
      first.update({ guideDismissed: true });
      expect(createSettingsService(t.repos.settings).get().guideDismissed).toBe(true);
    } finally {
      t.dispose();
    }
  });

  it('keeps the guide away from a profile that saved settings before the guide existed', () => {
    const t = tempStore();
    try {
      t.repos.settings.set('app.settings', { mode: 'live', serviceUrl: 'https://market.example', theme: 'dark' });
      expect(createSettingsService(t.repos.settings).get()).toMatchObject({ guideDismissed: true, mode: 'live' });
    } finally {
      t.dispose();
    }
  });
});
