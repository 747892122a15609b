import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaledClock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createKeychainSecretStore } from '../../src-main/main-thread/desktop/keychain.ts';
import { createDeskRouter } from '../../src-main/ipc/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';

/**
 * The real app core for end-to-end tests: the desk with its SQLite files in
 * `dataDir`, the API key in the real Secret Service (started by
 * test/with-keyring.sh), and the sandbox simulator over HTTP as the service
 * (live mode pointed at it, so the trader's own key flow is exercised). The
 * router is the one the main process binds to ipcMain.
 */
export interface TestDesk {
  readonly router: Router;
  readonly sandbox: Sandbox;
  readonly desk: Desk;
  readonly dataDir: string;
  /** Links the app asked to open in the browser. */
  readonly openedLinks: readonly string[];
  /** Every reply and event that crossed the bridge, as JSON text. */
  transcript(): string[];
  close(): Promise<void>;
}

export interface TestDeskOptions {
  /** Reuse a folder to reopen the same profile; a fresh temp folder otherwise. */
  dataDir?: string;
  /** Listings already in the ledger (and on the simulated service). */
  ledgerSize?: number;
  /** How much faster than the wall clock both the desk and the simulator run. */
  timeScale?: number;
  /** Reopen with the settings the profile saved instead of pointing it at this run's simulator. */
  savedSettings?: boolean;
}

export async function startTestDesk(options: TestDeskOptions = {}): Promise<TestDesk> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'desk-e2e-'));
  const clock = scaledClock(options.timeScale ?? 1);
  // The inventory holds the seeded ledger plus room for the listings a test creates.
  const sandbox = await startSandbox({ clock, seed: 11, inventorySize: (options.ledgerSize ?? 0) + 20_000 });
  // One keychain entry per profile folder, so a reopened desk finds its key and runs never collide.
  const service = `Marketplace Desk test ${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  const desk = await createDesk({
    dataDir,
    secrets: createKeychainSecretStore({ service }),
    clock,
    version: 'e2e',
    initialSettings: options.savedSettings ? undefined : { mode: 'live', serviceUrl: sandbox.url },
    // Live mode reads inventories from this run's simulator too, never from Steam.
    inventoryUrl: sandbox.url,
    openSandbox: (c) => startSandbox({ clock: c, seed: 12 }),
  });

  if (options.ledgerSize) seedLedger(desk, sandbox, options.ledgerSize);

  const openedLinks: string[] = [];
  const transcript: string[] = [];
  const { router: inner } = createDeskRouter(desk, { openLink: (url) => void openedLinks.push(url) }, { checkOutputs: true });
  const router: Router = {
    channels: inner.channels,
    events: inner.events,
    async invoke(channel, input) {
      const result = await inner.invoke(channel, input);
      transcript.push(JSON.stringify({ channel, result }));
      return result;
    },
    subscribe(listener) {
      return inner.subscribe((event, payload) => {
        transcript.push(JSON.stringify({ event, payload }));
        listener(event, payload);
      });
    },
  };

  return {
    router,
    sandbox,
    desk,
    dataDir,
    openedLinks,
    transcript: () => [...transcript],
    async close() {
      await desk.close();
      await sandbox.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Listings that exist on the simulated service and in the ledger, as if adopted earlier. */
function seedLedger(desk: Desk, sandbox: Sandbox, count: number): void {
  const { repos } = desk.workspace();
  repos.accounts.upsert({ account_id: sandbox.accounts.main, kind: 'main' });
  for (const linked of sandbox.accounts.linked) repos.accounts.upsert({ account_id: linked, kind: 'linked', automated: true });
  const seeded = sandbox.admin.seedListings(count);
  repos.listings.upsertMany(
    seeded.map((l) => ({
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
  desk.workspace().store.markLedgerChanged();
}
