import { createDraftService, type BulkResult, type DraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createLedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import type { Turn } from '../../../src-main/core/turn.ts';
import type { BulkOp } from '../../../src-shared/drafts.ts';
import type { LedgerDomain, LedgerSelection } from '../../../src-shared/ledger.ts';
import { LINKED, MAIN, tempStore, type TempStore } from '../store/temp-store.ts';
import { createBulkJobs } from '../../../src-main/core/bulk/bulk-jobs.ts';

export { LINKED, MAIN };

/** A temp store with a draft service. */
export interface DraftFixture {
  t: TempStore;
  drafts: DraftService;
  /** A bulk edit over a selection into this draft, the way the ledger screens make it. */
  bulk(draftId: string, domain: LedgerDomain, selection: LedgerSelection, op: BulkOp): Promise<BulkResult>;
  /** Simulates a restart: new connection, new service; only what is on disk remains. */
  restart(): void;
  dispose(): void;
}

/** `turn`: how the service's long jobs give the event loop back (a test may count the turns, or stop at one). */
export function draftFixture(options: { turn?: Turn } = {}): DraftFixture {
  const t = tempStore();
  const make = () => createDraftService({ store: t.store, repos: t.repos, bulk: createBulkJobs, ...(options.turn ? { turn: options.turn } : {}) });
  const f: DraftFixture = {
    t,
    drafts: make(),
    bulk(draftId, domain, selection, op) {
      f.drafts.select(draftId);
      return createLedgerTables({ store: t.store, drafts: f.drafts, now: () => t.store.clock.now() }).bulk(domain, selection, op);
    },
    restart() {
      f.drafts.dispose();
      t.reopen();
      f.drafts = make();
    },
    dispose() {
      f.drafts.dispose();
      t.dispose();
    },
  };
  return f;
}

export const ledgerListing = (asset: string, extra: Record<string, unknown> = {}) => ({
  asset_id: asset, listing_id: `L${asset}`, sku: '5021;6', price: 1000, promoted: 0 as const, game: '440', account: MAIN, ...extra,
});

/** Puts `count` listings in the ledger with asset IDs 1000000.., prices 100.. */
export function seedListings(t: TempStore, count: number, start = 1_000_000): void {
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push(ledgerListing(String(start + i), {
      price: 100 + (i % 5000), promoted: (i % 3 === 0 ? 1 : 0) as 0 | 1, sku: `${5000 + (i % 50)};6`, user_note: i % 7 === 0 ? 'fast trade' : '',
    }));
  }
  t.repos.listings.upsertMany(rows);
}
