import type { z } from 'zod';
import { settingsSchema } from '../../../src-shared/settings.ts';

export { settingsSchema } from '../../../src-shared/settings.ts';
export type Settings = z.infer<typeof settingsSchema>;
export const settingsPatchSchema = settingsSchema.partial();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = {
  // Without a key the app starts against the built-in simulator, clearly marked.
  mode: 'sandbox',
  serviceUrl: 'https://marketplace.invalid',
  heartbeatEnabled: true,
  heartbeatIntervalMinutes: 5,
  tradePollSeconds: 60,
  notificationsEnabled: true,
  startAtLogin: false,
  youngAccountDays: 30,
  theme: 'system',
  refuseUnautomatedPosts: true,
  autoUpdate: true,
};

/**
 * Reads stored settings leniently: a value that no longer passes (an older
 * version's, or a hand-edited one) falls back to its default instead of
 * making the app unusable; the rest is kept.
 */
export function readSettings(stored: Record<string, unknown>): Settings {
  const result: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const [key, schema] of Object.entries(settingsSchema.shape)) {
    if (!(key in stored)) continue;
    const parsed = (schema as z.ZodType).safeParse(stored[key]);
    if (parsed.success) result[key] = parsed.data;
  }
  return settingsSchema.parse(result);
}
