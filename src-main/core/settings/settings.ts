import { z } from 'zod';

/**
 * The trader's settings, with their bounds. The heartbeat interval stays within
 * the 5–9 minutes the interface recommends; trade polls never go faster than
 * the 1/min limit of the trade endpoints.
 */
export const settingsSchema = z.object({
  mode: z.enum(['sandbox', 'live']),
  /** Base URL of the live service: HTTPS (plain HTTP only for a loopback address). */
  serviceUrl: z.string().url(),
  heartbeatEnabled: z.boolean(),
  heartbeatIntervalMinutes: z.number().int().min(5).max(9),
  tradePollSeconds: z.number().int().min(60).max(3600),
  notificationsEnabled: z.boolean(),
  startAtLogin: z.boolean(),
  youngAccountDays: z.number().int().min(0).max(3650),
  theme: z.enum(['system', 'light', 'dark']),
  /** Never put up a listing while automation is off, so none shows as non-automated. */
  refuseUnautomatedPosts: z.boolean(),
});
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
