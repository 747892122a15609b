import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings, settingsPatchSchema } from '../../../src-main/core/settings/settings.ts';

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
});
