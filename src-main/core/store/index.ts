import type { Store } from './db.ts';
import { createAccountsRepo, type AccountsRepo } from './accounts-repo.ts';
import { createActivityRepo, type ActivityRepo } from './activity-repo.ts';
import { createAppliedRepo, type AppliedRepo } from './applied-repo.ts';
import { createBuyOrdersRepo, type BuyOrdersRepo } from './buy-orders-repo.ts';
import { createDraftsRepo, type DraftsRepo } from './drafts-repo.ts';
import { createJournalRepo, type JournalRepo } from './journal-repo.ts';
import { createListingsRepo, type ListingsRepo } from './listings-repo.ts';
import { createSettingsRepo, type SettingsRepo } from './settings-repo.ts';
import { createTradesRepo, type TradesRepo } from './trades-repo.ts';

/**
 * Every repository over one opened store, built once by the composition root
 * and handed to the services that need them.
 */
export interface Repos {
  readonly accounts: AccountsRepo;
  readonly listings: ListingsRepo;
  readonly buyOrders: BuyOrdersRepo;
  readonly trades: TradesRepo;
  readonly settings: SettingsRepo;
  readonly activity: ActivityRepo;
  readonly drafts: DraftsRepo;
  readonly journal: JournalRepo;
  /** What each apply run changed, for an undo. */
  readonly applied: AppliedRepo;
}

export function createRepos(store: Store): Repos {
  return {
    accounts: createAccountsRepo(store),
    listings: createListingsRepo(store),
    buyOrders: createBuyOrdersRepo(store),
    trades: createTradesRepo(store),
    settings: createSettingsRepo(store),
    activity: createActivityRepo(store),
    drafts: createDraftsRepo(store),
    journal: createJournalRepo(store),
    applied: createAppliedRepo(store),
  };
}

export { openStore, readPragma, type Store, type OpenStoreOptions } from './db.ts';
