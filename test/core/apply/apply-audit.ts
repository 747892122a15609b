import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Clock } from '../../../src-main/core/clock.ts';
import { listUnknownOutcomes, type UnknownOutcome } from '../../../src-main/core/apply/recovery.ts';
import { createDraftService } from '../../../src-main/core/drafts/draft-service.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import type { Sandbox } from '../../../src-main/sandbox/index.ts';
import type { ChangeInput } from '../../../src-shared/drafts.ts';

/**
 * What the tests that kill an apply midway share: a profile with a ledger and
 * a draft of every kind of change (edits, deletes, relists, creates on the
 * main and a linked account, buy order creates), and the audit afterwards of
 * what the profile says against what the service holds.
 */

export interface DraftSizes {
  readonly edits: number;
  readonly deletes: number;
  readonly relists: number;
  readonly creates: number;
  readonly linkedCreates: number;
  readonly buyOrders: number;
  readonly linkedBuyOrders: number;
}

/** The 5,000-change draft both kill tests apply: every kind of change, on the main and a linked account. */
export const KILL_TEST_DRAFT: DraftSizes = {
  edits: 1_600, deletes: 700, relists: 100, creates: 1_900, linkedCreates: 200, buyOrders: 200, linkedBuyOrders: 200,
};

/** Makes the service's writes take `ms` of its time, so kills land on requests in flight too. */
export function slowWrites(sandbox: Sandbox, ms: number): void {
  sandbox.faults.set({ delayMs: { ms, endpoints: ['create_listing', 'edit_listing', 'delete_listing', 'create_buy_order'] } });
}

/** Writes the profile at `path`: accounts, the ledger, and one draft; returns the draft's ID and its size. */
export function prepareApplyProfile(path: string, sandbox: Sandbox, clock: Clock, sizes: DraftSizes): { draftId: string; changes: number } {
  const main = sandbox.accounts.main;
  const linked = sandbox.accounts.linked[0] as string;
  sandbox.admin.setBalance(1_000_000_000);
  const store = openStore(path, { clock });
  const repos = createRepos(store);
  repos.accounts.upsert({ account_id: main, kind: 'main' });
  repos.accounts.upsert({ account_id: linked, kind: 'linked' });
  const ledgerSize = sizes.edits + sizes.deletes + sizes.relists;
  const seeded = sandbox.admin.seedListings(ledgerSize);
  repos.listings.upsertMany(seeded.map((l) => ({
    asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, account: main,
  })));
  const free = sandbox.admin.inventory().slice(0, sizes.creates);
  const freeLinked = sandbox.admin.inventory(linked).slice(0, sizes.linkedCreates);
  const edits = seeded.slice(0, sizes.edits);
  const deletes = seeded.slice(sizes.edits, sizes.edits + sizes.deletes);
  const relists = seeded.slice(sizes.edits + sizes.deletes);
  const drafts = createDraftService({ store, repos });
  const draft = drafts.create('apply killed midway');
  const changes: ChangeInput[] = [
    ...edits.map((l): ChangeInput => ({ kind: 'listing.edit', asset_id: l.asset_id, price: l.price + 11 })),
    ...deletes.map((l): ChangeInput => ({ kind: 'listing.delete', asset_id: l.asset_id })),
    ...relists.flatMap((l): ChangeInput[] => [
      { kind: 'listing.delete', asset_id: l.asset_id },
      { kind: 'listing.create', asset_id: l.asset_id, price: 4_321, promoted: 1 },
    ]),
    ...free.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 1_234, promoted: 0, game: a.game })),
    ...freeLinked.map((a): ChangeInput => ({ kind: 'listing.create', asset_id: a.asset_id, price: 2_345, promoted: 0, game: a.game, account: linked })),
    ...Array.from({ length: sizes.buyOrders }, (_, i): ChangeInput => ({ kind: 'buyOrder.create', sku: `${9_000 + i};6`, price: 50 + i, quantity: 2 })),
    ...Array.from({ length: sizes.linkedBuyOrders }, (_, i): ChangeInput => ({ kind: 'buyOrder.create', sku: `${9_500 + i};11`, price: 70, quantity: 1, account: linked })),
  ];
  const added = drafts.addChanges(draft.id, changes);
  if (added.errors.length > 0 || added.added !== changes.length) throw new Error(`the draft was not made: ${JSON.stringify(added.errors.slice(0, 3))}`);
  drafts.dispose();
  store.close();
  return { draftId: draft.id, changes: changes.length };
}

export interface ApplyAudit {
  readonly counts: {
    changes: number;
    applied: number;
    unknownOutcome: number;
    unknownBatches: number;
    heldBehindUnknownDelete: number;
    otherFailed: number;
    lost: number;
    appliedButNotOnService: number;
    duplicateCreates: number;
    duplicateBuyOrderCreates: number;
  };
  /** Changes the profile calls done that the service does not hold as done. */
  readonly mismatches: string[];
  /** Changes with an unknown outcome that no unknown-outcome batch shows. */
  readonly unknownNotShown: string[];
  readonly unknownBatches: readonly UnknownOutcome[];
  /** Whether the key's bytes are anywhere in the profile's file (after a checkpoint). */
  readonly keyInProfile: boolean;
}

/** Reads the profile at `path` after the apply and holds it against the service. */
export function auditApply(path: string, draftId: string, sandbox: Sandbox, clock: Clock): ApplyAudit {
  const store = openStore(path, { clock });
  try {
    const repos = createRepos(store);
    const entries = createDraftService({ store, repos }).entries(draftId);
    const byStatus = new Map<string, number>();
    for (const e of entries) byStatus.set(e.status, (byStatus.get(e.status) ?? 0) + 1);
    const unknownBatches = listUnknownOutcomes(repos);
    const shownUnknown = new Set(unknownBatches.flatMap((u) => u.items.map((x) => x.target)));
    // A relist whose delete has an unknown outcome is held back, with that reason.
    const held = entries.filter((e) => e.status === 'failed' && /unknown outcome/.test(e.error?.message ?? ''));

    const live = new Map(sandbox.admin.listings().filter((l) => l.state === 'active' || l.state === 'inactive').map((l) => [l.asset_id, l]));
    const orders = new Map(sandbox.admin.buyOrders().map((o) => [`${o.account}|${o.sku}`, o.quantity]));
    const mismatches: string[] = [];
    for (const e of entries.filter((x) => x.status === 'done')) {
      const c = e.change;
      if (c.kind === 'listing.create') {
        const l = live.get(c.asset_id);
        const row = repos.listings.get(c.asset_id);
        if (!l || l.price !== c.price || row?.listing_id !== l.listing_id) mismatches.push(e.target);
      } else if (c.kind === 'listing.edit') {
        if (live.get(c.asset_id)?.price !== c.price) mismatches.push(e.target);
      } else if (c.kind === 'listing.delete') {
        const relisted = entries.some((x) => x.target === `L:${c.asset_id}` && x.status === 'done');
        if (live.has(c.asset_id) && !relisted) mismatches.push(e.target);
      } else if (c.kind === 'buyOrder.create') {
        // The ledger's quantity is the service's, or a range that holds it.
        const stored = orders.get(`${c.account}|${c.sku}`);
        const row = repos.buyOrders.get(c.sku);
        const low = row?.quantity_may_be_cut ? row.quantity_at_least ?? 1 : row?.quantity;
        if (stored === undefined || !row || stored > row.quantity || stored < (low ?? 0)) mismatches.push(e.target);
      }
    }
    const applied = byStatus.get('done') ?? 0;
    const unknown = byStatus.get('unknown') ?? 0;
    store.db.exec('PRAGMA wal_checkpoint(FULL)');
    return {
      counts: {
        changes: entries.length,
        applied,
        unknownOutcome: unknown,
        unknownBatches: unknownBatches.length,
        heldBehindUnknownDelete: held.length,
        otherFailed: (byStatus.get('failed') ?? 0) - held.length,
        lost: entries.length - applied - unknown - held.length,
        appliedButNotOnService: mismatches.length,
        duplicateCreates: sandbox.log.counters.duplicateCreates,
        duplicateBuyOrderCreates: sandbox.log.counters.duplicateBuyOrderCreates,
      },
      mismatches,
      unknownNotShown: entries.filter((e) => e.status === 'unknown' && !shownUnknown.has(e.target)).map((e) => e.target),
      unknownBatches,
      keyInProfile: readFileSync(path).includes(Buffer.from(sandbox.apiKey)),
    };
  } finally {
    store.close();
  }
}

/** Batches journaled as sent and still without an outcome, read beside the app that holds the file (WAL lets a reader in). */
export function batchesInFlight(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM apply_batches WHERE state = 'sent'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}
