/**
 * The simulator for the main-loop bench, in a worker thread of its own: in
 * the app the main thread holds no simulator (sandbox mode runs it in the
 * data worker; live mode talks to the real service), so its requests and
 * its heap of 50,000 listings must not count against the main thread's
 * figures. Started with the scaled clock's parameters and the number of
 * listings to seed; posts where it listens, its key and what it seeded, then
 * waits for `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scaledClock } from '../../src-main/core/clock.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';

export interface ServiceWorkerData {
  readonly scale: number;
  readonly origin: number;
  readonly listings: number;
  /** Items in the main account's inventory; default the listings and 1,000 more. */
  readonly inventory?: number;
}

export interface ServiceReady {
  readonly url: string;
  readonly apiKey: string;
  readonly main: string;
  readonly seeded: readonly { asset_id: string; listing_id: string; sku: string; price: number; promoted: 0 | 1; game: string; user_note?: string | null; account: string }[];
}

const data = workerData as ServiceWorkerData;
const sandbox = await startSandbox({ clock: scaledClock(data.scale, data.origin), seed: 21, inventorySize: data.inventory ?? data.listings + 1_000 });
const seeded = sandbox.admin.seedListings(data.listings).map((l) => ({
  asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, user_note: l.user_note ?? null, account: l.account,
}));
parentPort?.postMessage({ url: sandbox.url, apiKey: sandbox.apiKey, main: sandbox.accounts.main, seeded } satisfies ServiceReady);
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') void sandbox.close().then(() => process.exit(0));
});
