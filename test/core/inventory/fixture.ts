import { afterEach } from 'vitest';
import type { Clock } from '../../../src-main/core/clock.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { openInventory, type Inventory } from '../../../src-main/core/inventory/index.ts';
import type { InventoryAccountState } from '../../../src-shared/inventory.ts';
import type { InventoryTiming } from '../../../src-main/core/inventory/inventory-service.ts';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { manualClock } from '../../sandbox/helpers.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

/** One schema for every test of the folder: it loads once. */
export const names = createItemNames();

export interface InventoryFixture {
  readonly clock: Clock & { advance(ms: number): void };
  readonly sandbox: Sandbox;
  readonly t: TempStore;
  readonly drafts: DraftService;
  readonly inventory: Inventory;
  readonly accounts: string[];
  /** Every state the reads announced, in order. */
  readonly states: InventoryAccountState[][];
  /** Resolves when every account's read has ended (done or failed) and none is wanted. */
  settled(): Promise<InventoryAccountState[]>;
}

/**
 * The inventory of a workspace against the simulator over HTTP, on a store
 * in a temp folder, with a clock whose sleeps pass at once (and move it): a
 * 429's wait or a backoff takes no real time, and the simulator's log shows
 * exactly when each request was made.
 */
export interface InventoryFixtureOptions {
  inventorySize?: number;
  timing?: Partial<InventoryTiming>;
  seed?: number;
  /** The clock of the simulator, the store and the reads; a manual one whose sleeps pass at once when absent. */
  clock?: Clock & { advance(ms: number): void };
}

export function inventoryFixture(): (options?: InventoryFixtureOptions) => Promise<InventoryFixture> {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async (options = {}) => {
    const clock = options.clock ?? manualClock();
    const sandbox = await startSandbox({ clock, seed: options.seed ?? 5, inventorySize: options.inventorySize ?? 2_500, tradeSchedule: false });
    cleanups.push(() => sandbox.close());
    const t = tempStore({ clock, seedAccounts: false });
    cleanups.push(() => t.dispose());
    const accounts = [sandbox.accounts.main, ...sandbox.accounts.linked];
    t.repos.accounts.upsert({ account_id: sandbox.accounts.main, kind: 'main' });
    for (const id of sandbox.accounts.linked) t.repos.accounts.upsert({ account_id: id, kind: 'linked' });
    const drafts = createDraftService({ store: t.store, repos: t.repos });
    cleanups.push(() => drafts.dispose());
    const inventory = openInventory({
      store: t.store, clock, baseUrl: sandbox.url, names, accounts: () => accounts, main: () => sandbox.accounts.main, drafts, settings: t.repos.settings,
      ...(options.timing ? { timing: options.timing } : {}),
    });
    cleanups.push(() => inventory.close());
    const states: InventoryAccountState[][] = [];
    inventory.reads.on('state', (s) => states.push([...s]));
    const settled = async () => {
      for (let i = 0; i < 20_000; i++) {
        const now = inventory.reads.state();
        if (now.every((s) => s.phase !== 'reading' && s.phase !== 'waiting')) return now;
        await new Promise((r) => setTimeout(r, 2));
      }
      throw new Error('the inventory reads did not settle');
    };
    return { clock, sandbox, t, drafts, inventory, accounts, states, settled };
  };
}
