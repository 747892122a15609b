import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import type { Liveness } from '../../src-main/main-thread/liveness.ts';
import { createKeychainSecretStore } from '../../src-main/main-thread/keychain.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { KILL_TEST_DRAFT, prepareApplyProfile, slowWrites } from '../core/apply/apply-audit.ts';
import { keychainServiceFor } from '../desktop/boot-support.ts';

/**
 * What the tests that stop the data worker mid-apply share: the simulator as
 * the live service, a profile with the 5,000-change draft of every kind, the
 * key in the keychain, writes slowed so stops land on requests in flight, and
 * the main thread's connection to the worker, whose log errors are kept.
 */
export interface ApplyDesk {
  readonly sandbox: Sandbox;
  readonly connection: DeskConnection;
  /** The live profile's own file (live mode's ledger). */
  readonly path: string;
  readonly draft: { readonly draftId: string; readonly changes: number };
  readonly clock: Clock;
  /** Errors main logged, with their fields. */
  readonly errors: { readonly message: string; readonly fields: Record<string, unknown> | undefined }[];
}

export async function openApplyDesk(dir: string, options: { scale: number; seed: number; spawn: () => Worker; liveness?: Liveness }): Promise<ApplyDesk> {
  const origin = Date.now();
  const clock = scaledClock(options.scale, origin);
  const sandbox = await startSandbox({ clock, seed: options.seed, tradeSchedule: false, inventorySize: 6_000 });
  const path = join(dir, 'default.sqlite');
  const draft = prepareApplyProfile(path, sandbox, clock, KILL_TEST_DRAFT);
  const keychainService = keychainServiceFor(dir);
  const keychain = createKeychainSecretStore({ service: keychainService });
  expect(await keychain.state(), 'no Secret Service: run through test/with-keyring.sh').toBe('available');
  await keychain.set('api-key:default', sandbox.apiKey);
  // Writes take a while (20 s of service time) so most stops land on requests in flight.
  slowWrites(sandbox, 20_000);

  const errors: ApplyDesk['errors'] = [];
  const quiet = () => undefined;
  const connection = await connectDesk({
    spawn: options.spawn,
    secrets: createKeychainSecretStore({ service: keychainService }),
    config: {
      dataDir: dir, version: 'test', clock: { scale: options.scale, origin }, sandbox: {},
      initialSettings: { mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false },
      inventoryUrl: sandbox.url,
    },
    platform: { openLink: quiet },
    log: { debug: quiet, info: quiet, warn: quiet, error: (message, fields) => void errors.push({ message, fields }) },
    ...(options.liveness ? { liveness: options.liveness } : {}),
  });
  return { sandbox, connection, path, draft, clock, errors };
}
