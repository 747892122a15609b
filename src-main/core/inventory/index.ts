import type { Clock } from '../clock.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { Store } from '../store/db.ts';
import { createInventoryReads } from '../store/inventory-reads.ts';
import { createReferenceReads } from '../store/reference-reads.ts';
import { schemaNameIndex } from '../store/name-index.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import type { PriceGuard } from '../../../src-shared/price-guard.ts';
import { createInventoryDrafting, type InventoryDrafting } from './inventory-drafting.ts';
import { createInventoryQueries, type InventoryQueries } from './inventory-query.ts';
import { createInventoryService, type InventoryService, type InventoryTiming } from './inventory-service.ts';
import { createSteamInventoryClient } from './steam-client.ts';

/**
 * The trader's inventories for one workspace: read from Steam (the simulator
 * in sandbox mode) in the background, kept in the workspace's store, asked for
 * a page at a time, and drafted from into the current draft.
 */
export interface Inventory {
  readonly reads: InventoryService;
  readonly queries: InventoryQueries;
  readonly drafting: InventoryDrafting;
  close(): Promise<void>;
}

export interface InventoryDeps {
  store: Store;
  clock: Clock;
  /** Steam's community site, or the simulator's URL. */
  baseUrl: string;
  names: ItemNames;
  /** Every account the key acts for, main first. */
  accounts: () => string[];
  main: () => string | null;
  drafts: Pick<DraftService, 'current' | 'ensureCurrent' | 'addChanges'>;
  /** The trader's price guard, which marks items priced far under what they fetch. */
  guard?: () => PriceGuard;
  timing?: Partial<InventoryTiming>;
  /** Where the names tables note the schema version they were built with; without it the search finds items by Steam's name, SKU and asset ID alone. */
  settings?: SettingsRepo;
}

/** Said where typed asset IDs cannot be checked because the inventory was never read. */
const NOT_READ = 'This account’s inventory has not been read yet, so the asset IDs cannot be checked against it.';

export function openInventory(deps: InventoryDeps): Inventory {
  const client = createSteamInventoryClient({ baseUrl: deps.baseUrl, clock: deps.clock });
  const reads = createInventoryService({
    store: deps.store, clock: deps.clock, client, names: deps.names, accounts: deps.accounts, ...(deps.timing ? { timing: deps.timing } : {}),
  });
  const kept = createInventoryReads(deps.store.db);
  const queries = createInventoryQueries({
    reads: kept, names: deps.names, currentDraft: () => deps.drafts.current(), main: deps.main, itemsVersion: () => reads.itemsVersion(),
    ...(deps.settings ? { nameIndex: schemaNameIndex(deps.store, deps.settings, deps.names, ['inventory']) } : {}),
  });
  const drafting = createInventoryDrafting({
    reads: kept,
    references: createReferenceReads(deps.store.db),
    ...(deps.guard ? { guard: deps.guard } : {}),
    queries,
    drafts: deps.drafts,
    main: deps.main,
    readOf(account) {
      const state = reads.state().find((s) => s.account === account);
      const readAt = state?.readAt ?? null;
      return { readAt, unchecked: readAt === null ? state?.problem?.message ?? NOT_READ : null };
    },
  });
  return { reads, queries, drafting, close: () => reads.close() };
}
