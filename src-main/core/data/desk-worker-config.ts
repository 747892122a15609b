import { z } from 'zod';
import { settingsPatchSchema } from '../settings/settings.ts';

/**
 * How the main thread asks the data worker to open the desk: plain data,
 * checked on arrival like every message of the boundary. Functions cannot
 * cross a thread, so time, the keychain and the simulator are named here and
 * built in the worker.
 */
export const deskWorkerConfig = z.strictObject({
  /** The profiles folder (one SQLite file per profile, and one per profile's sandbox). */
  dataDir: z.string().min(1),
  profile: z.string().min(1).max(100).optional(),
  version: z.string().max(100),
  /** Time runs `scale` times faster from `origin` (tests and benchmarks); null: the system clock. */
  clock: z.strictObject({ scale: z.number().positive(), origin: z.number() }).nullable(),
  /** Options of the built-in simulator sandbox mode talks to. */
  sandbox: z.strictObject({
    seed: z.number().int().optional(),
    inventorySize: z.number().int().nonnegative().optional(),
    tradeSchedule: z.boolean().optional(),
    pastDays: z.number().int().min(0).max(400).optional(),
    tradeMoney: z.boolean().optional(),
  }),
  /** Settings forced at start (tests: live mode against a simulator's URL). */
  initialSettings: settingsPatchSchema.optional(),
  /** Where live mode reads inventories, when not Steam (tests: the simulator's URL). */
  inventoryUrl: z.string().max(2_000).optional(),
  /** Where a new live profile's pricedb.io source asks (the end-to-end tests: their simulator's). */
  pricedbUrl: z.string().max(2_000).optional(),
  /** The profile lock's holder: the same for every start of the worker, so a restarted one takes over its own lock. */
  lockToken: z.string().min(1).max(100),
  /** How many times the worker was started before: its stamps begin beyond every earlier one. */
  generation: z.number().int().nonnegative(),
});
export type DeskWorkerConfig = z.infer<typeof deskWorkerConfig>;

/** Stamps each worker start may use: more than a desk could bump in its life. */
export const STAMPS_PER_GENERATION = 2 ** 40;
