import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../src-shared/contract.ts';
import { scaledClock, type Clock } from '../../src-main/core/clock.ts';
import { openStore, type Store } from '../../src-main/core/store/db.ts';
import { createRepos, type Repos } from '../../src-main/core/store/index.ts';
import { createKeychainSecretStore } from '../../src-main/main-thread/keychain.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import type { SandboxListing } from '../../src-main/sandbox/state/listings.ts';
import { connectDesk, type DeskConnection } from '../../src-main/main-thread/desk-connection.ts';
import { DESK_WORKER } from '../worker/desk-worker-entry.ts';
import { deskShell } from './shell.ts';

/**
 * The app's core for end-to-end tests, arranged as the app arranges it: the
 * desk runs in its data worker (the built bundle when there is one, as the
 * app ships it), reached through main's own connection (`desk-connection.ts`),
 * whose router is the one the main process binds to ipcMain. The API key sits
 * in the real Secret Service (started by test/with-keyring.sh), kept on this,
 * the main, thread; live mode is pointed at a simulator in this process (so
 * the trader's own key flow is exercised, and the test can read and fault
 * the service), and inventories are read from it too.
 *
 * Tests put rows in the store only by writing the profile's SQLite file while
 * no desk holds it (`seed`, before the worker opens it, or `reopen`), and look
 * at it through the bridge's channels or a read-only connection (`read`).
 */
export interface TestDesk {
  /** The bridge: main's router over the worker, stays the same across `reopen`. */
  readonly router: Router;
  readonly sandbox: Sandbox;
  /** Main's connection to the worker now serving the desk (a recovery problem, a kill). */
  connection(): DeskConnection;
  readonly dataDir: string;
  /** The live profile's SQLite file, the one the worker opens. */
  readonly profilePath: string;
  /** Links the app asked to open in the browser. */
  readonly openedLinks: readonly string[];
  /** Every reply and event that crossed the bridge, as JSON text. */
  transcript(): string[];
  /** What the desk answers on a channel of the bridge, as a screen would ask it; a refusal throws. */
  ask<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>>;
  /** Runs `query` on a read-only connection of its own to the profile's file, beside the worker's. */
  read<T>(query: (db: DatabaseSync) => T): T;
  /**
   * Closes the desk and its worker, runs `seed` on the profile's file, and
   * opens the desk again in a new worker against the same simulator (its
   * settings forced at start as the first time): as a restart of the app.
   */
  reopen(seed?: Seeder): Promise<void>;
  close(): Promise<void>;
}

/** What a seeder is given: the profile's store opened in this process (no desk holds it), and the simulator. */
export interface ProfileSeed {
  readonly store: Store;
  readonly repos: Repos;
  readonly sandbox: Sandbox;
  readonly clock: Clock;
}
export type Seeder = (profile: ProfileSeed) => void;

export interface TestDeskOptions {
  /** Reuse a folder to reopen the same profile; a fresh temp folder otherwise. */
  dataDir?: string;
  /** Listings already in the ledger (and on the simulated service). */
  ledgerSize?: number;
  /** Items in the simulated account's inventory; default the ledger's size + 2,000. */
  inventorySize?: number;
  /** How much faster than the wall clock both the desk and the simulator run. */
  timeScale?: number;
  /** Open with the settings the profile saved instead of pointing it at this run's simulator. */
  savedSettings?: boolean;
  /** Writes to the profile's file before the worker opens it (after the `ledgerSize` listings). */
  seed?: Seeder;
  /** Trades that arrive on the simulator over time (default on); off where a buyer taking a listing would change what a test counts. */
  tradeSchedule?: boolean;
}

/** The data worker as the app ships it (electron-vite's bundle), else its sources. */
const BUILT_DESK_WORKER = new URL('../../out/main/desk-worker.cjs', import.meta.url);
const deskWorker = () => new Worker(existsSync(BUILT_DESK_WORKER) ? BUILT_DESK_WORKER : DESK_WORKER);

export async function startTestDesk(options: TestDeskOptions = {}): Promise<TestDesk> {
  // The server project runs the same specs against the real server process.
  if (deskShell() === 'server') return (await import('./server/server-desk.ts')).startServerDesk(options);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  const profilePath = join(dataDir, 'default.sqlite');
  const scale = options.timeScale ?? 1;
  // One origin for the simulator here and the desk in its worker, so both read the same time.
  const origin = Date.now();
  const clock = scaledClock(scale, origin);
  // The inventory holds the seeded ledger plus room for the listings a test creates: with the small ledgers of
  // the picker's specs, no more than a TF2 backpack holds (3,000), so a read of Steam's takes it whole.
  const sandbox = await startSandbox({ clock, seed: 11, inventorySize: options.inventorySize ?? (options.ledgerSize ?? 0) + 2_000, tradeSchedule: options.tradeSchedule ?? true });
  // One keychain entry per profile folder, so a reopened desk finds its key and runs never collide.
  const keychainService = `Marketplace Desk test ${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  if ((await createKeychainSecretStore({ service: keychainService }).state()) !== 'available') {
    await sandbox.close();
    throw new Error('no Secret Service for the API key: run the end-to-end tests through test/with-keyring.sh');
  }

  const seed = (seeder: Seeder) => {
    const store = openStore(profilePath, { clock });
    try {
      seeder({ store, repos: createRepos(store), sandbox, clock });
    } finally {
      store.close();
    }
  };
  if (options.ledgerSize) seed(seedLedger(options.ledgerSize));
  if (options.seed) seed(options.seed);

  const openedLinks: string[] = [];
  const transcript: string[] = [];
  const quiet = () => undefined;
  const connect = (savedSettings: boolean) =>
    connectDesk({
      spawn: deskWorker,
      secrets: createKeychainSecretStore({ service: keychainService }),
      config: {
        dataDir,
        version: 'e2e',
        // Real time is the system clock, as the app runs.
        clock: scale === 1 ? null : { scale, origin },
        // Sandbox mode's own simulator, in the worker; its balance moves only when a test says so.
        sandbox: { seed: 12, tradeMoney: false },
        ...(savedSettings ? {} : { initialSettings: { mode: 'live' as const, serviceUrl: sandbox.url } }),
        // Live mode reads inventories from this run's simulator too, never from Steam.
        inventoryUrl: sandbox.url,
        pricedbUrl: sandbox.pricedb.url,
      },
      platform: { openLink: (url) => void openedLinks.push(url) },
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
  let connection = await connect(options.savedSettings ?? false);

  // The router the page holds: forwards to the connection of the moment, and records what crossed.
  const subscriptions = new Map<object, { listener: Parameters<Router['subscribe']>[0]; off: () => void }>();
  const listen = (listener: Parameters<Router['subscribe']>[0]) =>
    connection.router.subscribe((event, payload) => {
      transcript.push(JSON.stringify({ event, payload }));
      listener(event, payload);
    });
  const router: Router = {
    channels: connection.router.channels,
    events: connection.router.events,
    async invoke(channel, input) {
      const result = await connection.router.invoke(channel, input);
      transcript.push(JSON.stringify({ channel, result }));
      return result;
    },
    subscribe(listener) {
      const token = {};
      subscriptions.set(token, { listener, off: listen(listener) });
      return () => {
        subscriptions.get(token)?.off();
        subscriptions.delete(token);
      };
    },
  };

  return {
    router,
    sandbox,
    connection: () => connection,
    dataDir,
    profilePath,
    openedLinks,
    transcript: () => [...transcript],
    ask: askOf(router),
    read: (query) => readProfile(profilePath, query),
    async reopen(seeder) {
      await connection.close();
      if (seeder) seed(seeder);
      connection = await connect(options.savedSettings ?? false);
      for (const s of subscriptions.values()) {
        s.off();
        s.off = listen(s.listener);
      }
    },
    async close() {
      await connection.close();
      await sandbox.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Gives the desk the simulator's key and has it read the accounts, as a trader's first run does. */
export async function keyIn(desk: TestDesk): Promise<void> {
  const r = await desk.router.invoke('key:set', { key: desk.sandbox.apiKey });
  if (!r.ok) throw new Error(r.error.message);
  await desk.router.invoke('accounts:refresh', {});
}

/** Listings that exist on the simulated service and in the ledger, as if adopted earlier. */
function seedLedger(count: number): Seeder {
  return ({ repos, sandbox }) => adopt(repos, sandbox, sandbox.admin.seedListings(count));
}

/** Puts listings the simulator holds into the ledger, with the accounts, as if the desk had adopted them earlier. */
export function adopt(repos: Repos, sandbox: Sandbox, listings: ReadonlyArray<Readonly<SandboxListing>>): void {
  repos.accounts.upsert({ account_id: sandbox.accounts.main, kind: 'main' });
  for (const linked of sandbox.accounts.linked) repos.accounts.upsert({ account_id: linked, kind: 'linked', automated: true });
  repos.listings.upsertMany(
    listings.map((l) => ({
      asset_id: l.asset_id,
      listing_id: l.listing_id,
      sku: l.sku,
      price: l.price,
      promoted: l.promoted,
      game: l.game,
      user_note: l.user_note ?? '',
      account: l.account,
    })),
  );
}

/** A desk's `ask`: the channel's answer through `router`, or an error naming the channel and what went wrong. */
export function askOf(router: Pick<Router, 'invoke'>): TestDesk['ask'] {
  return async (channel, input) => {
    const result = await router.invoke(channel, input ?? {});
    if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`);
    return result.value as ChannelOutput<typeof channel>;
  };
}

/** What `query` reads of the profile, opened read-only beside the running desk. */
export function readProfile<T>(profilePath: string, query: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(profilePath, { readOnly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}
