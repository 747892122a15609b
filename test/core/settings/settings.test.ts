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
