import { z } from 'zod';
import { serviceUrl } from './fields.ts';
import { csvExportFormat } from './csv-dialect.ts';
import { priceGuard } from './price-guard.ts';

/**
 * The trader's settings, with their bounds. The heartbeat interval stays within
 * the 5–9 minutes the interface recommends; trade polls never go faster than
 * the 1/min limit of the trade endpoints.
 */
export const settingsSchema = z.object({
  mode: z.enum(['sandbox', 'live']),
  /** Base URL of the live service: HTTPS (plain HTTP only for a loopback address). */
  serviceUrl,
  heartbeatEnabled: z.boolean(),
  heartbeatIntervalMinutes: z.number().int().min(5).max(9),
  tradePollSeconds: z.number().int().min(60).max(3600),
  notificationsEnabled: z.boolean(),
  startAtLogin: z.boolean(),
  youngAccountDays: z.number().int().min(0).max(3650),
  theme: z.enum(['system', 'light', 'dark']),
  /** Never put up a listing while automation is off, so none shows as non-automated. */
  refuseUnautomatedPosts: z.boolean(),
  /** Look for updates at start and every few hours, and download them in the background. */
  autoUpdate: z.boolean(),
  /**
   * The trader chose a way to start (sandbox or live) or put the
   * guided start away; it stays away until asked for again from Settings.
   */
  guideDismissed: z.boolean(),
  /** Which price changes are marked and need an explicit confirmation before they are applied. */
  priceGuard,
  /** How exported CSV files are written: for a spreadsheet that reads commas and decimal points, or semicolons and decimal commas. */
  csvFormat: csvExportFormat,
});

/**
 * What the renderer may know about the API key: whether one is set, its last
 * four characters, and whether the service accepted it. Never the key.
 */
export const keyStatusSchema = z.object({
  set: z.boolean(),
  last4: z.string().max(4).nullable(),
  /** `rejected` after a 401: work that needs the key stops until it is replaced. */
  state: z.enum(['none', 'unverified', 'valid', 'rejected']),
  keychainAvailable: z.boolean(),
  /** Why the keychain cannot be used: none answers, or its collection is locked (the trader can unlock it). */
  keychainProblem: z.enum(['missing', 'locked']).optional(),
});
