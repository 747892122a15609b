import { performance } from 'node:perf_hooks';
import { changeColumns } from '../../../src-main/core/store/draft-columns.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { createLedgerTables } from '../../../src-main/core/bulk/ledger-tables.ts';
import type { SettingsPatch } from '../../../src-main/core/settings/settings.ts';
import { createSettingsService } from '../../../src-main/core/settings/settings-service.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import type { ListingInput } from '../../../src-main/core/store/listings-repo.ts';
import { APP_VERSION_KEY } from '../../../src-main/core/profile/backup-contents.ts';
import { createPriceSources } from '../../../src-main/core/pricing/price-sources.ts';
import { systemClock } from '../../../src-main/core/clock.ts';
import { benchListings } from '../bench-ledger.ts';

/**
 * A profile for the scale bench, written the way a desk that has run for
 * months would have it on disk: the schema from the app's own migrations,
 * the account, settings and drafts through the app's services, and the bulk
 * rows (hundreds of thousands of listings and draft changes) with prepared
 * statements in one transaction, so 500,000 rows take seconds, not minutes;
 * then closed as the desk closes it (its counts kept for the next start).
 */

/** The settings of every bench's profile: live against the simulator at `serviceUrl`, beating, with the first-run guide done. */
export function liveBenchSettings(serviceUrl: string): SettingsPatch {
  return { mode: 'live', serviceUrl, heartbeatEnabled: true, refuseUnautomatedPosts: false, guideDismissed: true };
}

export interface ProfilePlan {
  /** The main account of the service the profile talks to. */
  readonly account: string;
  readonly settings: SettingsPatch;
  /** Listings that exist on the service (they can be edited by an apply); the ledger's first rows. */
  readonly serviceListings: readonly ListingInput[];
  /** The ledger's size, service listings included. */
  readonly listings: number;
  /** Changes of the current draft: price edits of the ledger's last rows. */
  readonly draftChanges: number;
  /** A second draft of price edits to every service listing, to apply (none when false). */
  readonly applyDraft: boolean;
}

/** The version the runs' app reports: the Electron double's (test/desktop/fake-electron.ts, which loads vitest and cannot be imported here). */
const BENCH_APP_VERSION = '0.1.0';

export interface SeededProfile {
  readonly bigDraft: string | null;
  readonly applyDraft: string | null;
  readonly seedMs: number;
}

export function seedProfile(path: string, plan: ProfilePlan): SeededProfile {
  const started = performance.now();
  const store = openStore(path);
  try {
    const repos = createRepos(store);
    repos.accounts.upsert({ account_id: plan.account, kind: 'main' });
    createSettingsService(repos.settings).update(plan.settings);
    let applyDraft: string | null = null;
    let bigDraft: string | null = null;
    if (plan.listings > 0) {
      // Made through the drafts service while the ledger is empty (cheap); the last made is the current draft.
      const drafts = createDraftService({ store, repos });
      if (plan.applyDraft) applyDraft = drafts.create('Apply').id;
      if (plan.draftChanges > 0) bigDraft = drafts.create('Big repricing').id;
      drafts.dispose();
    }
    const ledger = [...plan.serviceListings, ...benchListings(plan.listings - plan.serviceListings.length, { from: plan.serviceListings.length, account: plan.account })];
    const at = Date.now();
    const insertListing = store.db.prepare(`
      INSERT INTO listings (asset_id, listing_id, id_unknown, sku, price, promoted, game, user_note, account, state, updated_at)
      VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, 'active', ?)`);
    // The columns the app writes for a change (see store/draft-columns.ts), one checked below.
    const insertChange = store.db.prepare(`
      INSERT INTO draft_entries (draft_id, slot, key, seq, kind, account, listing_id, sku, price, promoted, quantity, active,
        user_note, game, active_only, replaced, if_exists, status, updated_at)
      VALUES (:draft_id, :slot, :key, :seq, :kind, :account, :listing_id, :sku, :price, :promoted, :quantity, :active,
        :user_note, :game, :active_only, :replaced, :if_exists, 'pending', :at)`);
    const write = (draftId: string, seq: number, l: ListingInput, cents: number) =>
      insertChange.run({ ...changeColumns(edit(l, cents)), draft_id: draftId, seq, at });
    const edit = (l: ListingInput, cents: number) =>
      ({ kind: 'listing.edit' as const, account: plan.account, asset_id: l.asset_id, listing_id: l.listing_id ?? '', price: l.price + cents, promoted: l.promoted ?? 0 });
    // Each row's columns come from the app's own mapping, which checks the change with the shared schema.
    store.transaction(() => {
      for (const l of ledger) insertListing.run(l.asset_id, l.listing_id ?? null, l.sku ?? '', l.price, l.promoted ?? 0, l.game ?? '440', l.user_note ?? '', plan.account, at);
      let seq = 0;
      if (applyDraft) {
        for (const l of plan.serviceListings) write(applyDraft, ++seq, l, 1);
      }
      if (bigDraft) {
        seq = 0;
        for (const l of ledger.slice(ledger.length - plan.draftChanges)) write(bigDraft, ++seq, l, 10);
      }
      for (const id of [applyDraft, bigDraft]) if (id) store.db.prepare('UPDATE drafts SET next_seq = ? WHERE draft_id = ?').run(seq + 1, id);
    });
    // As every close of the desk leaves it: the current draft's counts kept for the next start, and the version of
    // the app that wrote it (a start of another version notes its own, a write and a sync that an ordinary start has not).
    repos.settings.set(APP_VERSION_KEY, BENCH_APP_VERSION);
    // The price source the desk's first open stores (pricedb.io until the trader says otherwise): a later start reads it, writing nothing.
    createPriceSources({ store, clock: systemClock, wanted: () => [] });
    const drafts = createDraftService({ store, repos });
    createLedgerTables({ store, drafts, settings: repos.settings, now: () => Date.now() }).keepCounts();
    drafts.dispose();
    return { bigDraft, applyDraft, seedMs: performance.now() - started };
  } finally {
    // Closing checkpoints the write-ahead log: the profile is one file, ready to copy.
    store.close();
  }
}
