import type { z } from 'zod';
import { PLAIN_PARSE } from '../../../src-shared/plain-parse.ts';
import { settingsSchema } from '../../../src-shared/settings.ts';
import { DEFAULT_PRICE_GUARD } from '../../../src-shared/price-rules.ts';

export { settingsSchema } from '../../../src-shared/settings.ts';
export type Settings = z.infer<typeof settingsSchema>;
export const settingsPatchSchema = settingsSchema.partial();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

/**
 * The live service (docs.liquid.tf): going live is paste a key, test it,
 * done. The URL stays editable in Settings → Advanced.
 */
export const LIVE_SERVICE_URL = 'https://api.liquid.tf';

/**
 * The placeholder the first versions shipped as the live URL: it could never
 * answer, and a profile that saved any setting saved it too. Read as "not
 * chosen", so such a profile gets the real default instead of a dead address.
 */
const OLD_PLACEHOLDER_URL = 'https://marketplace.invalid';

export const DEFAULT_SETTINGS: Settings = {
  // Without a key the app starts against the built-in simulator, clearly marked.
  mode: 'sandbox',
  serviceUrl: LIVE_SERVICE_URL,
  heartbeatEnabled: true,
  heartbeatIntervalMinutes: 5,
  tradePollSeconds: 60,
  notificationsEnabled: true,
  startAtLogin: false,
  youngAccountDays: 30,
  theme: 'system',
  refuseUnautomatedPosts: true,
  autoUpdate: true,
  guideDismissed: false,
  priceGuard: DEFAULT_PRICE_GUARD,
  csvFormat: 'comma',
};

/**
 * Reads stored settings leniently: a value that no longer passes (an older
 * version's, or a hand-edited one) falls back to its default instead of
 * making the app unusable; the rest is kept.
 */
export function readSettings(stored: Record<string, unknown>): Settings {
  return readSettingsSaying(stored).settings;
}

/** A stored setting that no longer passes, left for its default: the desk says so rather than keep it quiet. */
export interface SettingNotKept {
  readonly key: keyof Settings;
  readonly reason: string;
}

export function readSettingsSaying(stored: Record<string, unknown>): { settings: Settings; notKept: SettingNotKept[] } {
  const result: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  const notKept: SettingNotKept[] = [];
  for (const [key, schema] of Object.entries(settingsSchema.shape)) {
    if (!(key in stored)) continue;
    if (key === 'serviceUrl' && stored[key] === OLD_PLACEHOLDER_URL) continue;
    const parsed = (schema as z.ZodType).safeParse(stored[key], PLAIN_PARSE);
    if (parsed.success) result[key] = parsed.data;
    else notKept.push({ key: key as keyof Settings, reason: parsed.error.issues[0]?.message ?? 'is not valid' });
  }
  // Read at open and after a change: the plain path (PLAIN_PARSE), not a path compiled for a handful of parses.
  return { settings: settingsSchema.parse(result, PLAIN_PARSE), notKept };
}
