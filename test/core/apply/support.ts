import { afterEach } from 'vitest';
import { createApplyService, type ApplyService } from '../../../src-main/core/apply/apply-draft.ts';
import { createDraftService, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createMemorySeenTradesStore } from '../../../src-main/core/trades/seen-trades.ts';
import { createTradeWatcher } from '../../../src-main/core/trades/trade-watcher.ts';
import type { SandboxListing } from '../../../src-main/sandbox/index.ts';
import { startLive, type Live, type LiveOptions } from '../scheduler/support/live.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';
import { createBulkJobs } from '../../../src-main/core/bulk/bulk-jobs.ts';

/**
 * The apply stack as the app wires it: a profile store in a temp folder, the
 * draft and apply services, the trade watcher's balance reads (not its
 * loops), and the real scheduler and client against the sandbox over HTTP,
 * on one scaled clock.
 */
export interface ApplyStack {
  live: Live;
  t: TempStore;
  drafts: DraftService;
  apply: ApplyService;
  /** Puts sandbox listings into the ledger, as a CSV import of existing listings would. */
  adopt(listings: readonly Readonly<SandboxListing>[]): void;
  /** A new process on the same file: new services, nothing in memory. */
  restart(): void;
}

export interface ApplyFixtureOptions {
  /** Where the profile's temp folder is made; default the OS temp folder. */
  readonly parent?: string;
  readonly live?: LiveOptions;
}

export function applyFixture(scale: number, options: ApplyFixtureOptions = {}): () => Promise<ApplyStack> {
  let stack: ApplyStack | undefined;
  afterEach(async () => {
    stack?.drafts.dispose();
    await stack?.live.close();
    stack?.t.dispose();
    stack = undefined;
  });
  return async () => {
    const live = await startLive(scale, options.live);
    const t = tempStore({ clock: live.clock, seedAccounts: false, ...(options.parent ? { parent: options.parent } : {}) });
    t.repos.accounts.upsert({ account_id: live.sandbox.accounts.main, kind: 'main' });
    for (const id of live.sandbox.accounts.linked) t.repos.accounts.upsert({ account_id: id, kind: 'linked' });
    const make = () => {
      const drafts = createDraftService({ store: t.store, repos: t.repos, bulk: createBulkJobs });
      // The app reads the balance around buy order creates through the trade watcher.
      const balance = createTradeWatcher({ scheduler: live.scheduler, clock: live.clock, seen: createMemorySeenTradesStore() });
      return { drafts, apply: createApplyService({ store: t.store, repos: t.repos, drafts, scheduler: live.scheduler, balance }) };
    };
    const s: ApplyStack = {
      live, t, ...make(),
      adopt(listings) {
        t.repos.listings.upsertMany(listings.map((l) => ({
          asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted,
          game: l.game, user_note: l.user_note ?? '', account: l.account, state: l.state,
        })));
      },
      restart() {
        s.drafts.dispose();
        t.reopen();
        Object.assign(s, make());
      },
    };
    stack = s;
    return s;
  };
}
