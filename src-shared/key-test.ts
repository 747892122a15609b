import { z } from 'zod';
import { errorView } from './errors.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * What "Test key" found when it asked the service with the stored
 * key, for the first run and Settings to say in words. The key is the live
 * service's, so it is tested there in sandbox mode too (the simulator never
 * sees it). Nothing here can carry the key: only its last four characters.
 *
 * - `accepted`: the service answered with the key (what it said is below).
 * - `no_key`: no key is stored (or the keychain cannot give it): nothing was sent.
 * - `rejected`: the service refused the key (401).
 * - `forbidden`: the key is good but the account may not do this (403).
 * - `unreachable`: the service did not answer (`unreachableWhy` says why, when known).
 * - `failed`: it answered, but not with something the desk could read.
 */
export const keyTestOutcome = z.enum(['accepted', 'no_key', 'rejected', 'forbidden', 'unreachable', 'failed']);

export const keyTestResult = lazySchema(() => z.object({
  outcome: keyTestOutcome,
  /** The service that was asked. */
  serviceUrl: z.string(),
  /** The desk's mode when tested: in sandbox mode the key is still tested against the live service. */
  mode: z.enum(['sandbox', 'live']),
  /** Which key was tested, as the screens show it. */
  last4: z.string().max(4).nullable(),
  /** When the test ended (ms). */
  testedAt: z.number(),
  /**
   * When the service gave the answers below (ms): an answer to this key from
   * the last minute is reused, since the accounts list may be read once a minute.
   */
  answeredAt: z.number().nullable(),
  /** The account the key belongs to. */
  mainAccount: z.string().nullable(),
  linkedAccounts: z.array(z.string()),
  balance: z.object({ balance: z.number().int(), pending_balance: z.number().int() }).nullable(),
  /** Why the accounts or the balance could not be read; null when both were. */
  problem: errorView.nullable(),
  /** Why the service could not be reached, in words, when that is what happened. */
  unreachableWhy: z.string().nullable(),
}));
export type KeyTestResult = z.infer<typeof keyTestResult>;
export type KeyTestOutcome = z.infer<typeof keyTestOutcome>;
