import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import type { Store } from './db.ts';
import { entrySelect, readEntry, targetKey, type Slot } from './draft-columns.ts';
import { LOCKED_SQL, type DraftEntry } from './draft-entry.ts';
import { parseRows } from './sql.ts';
import { countOf } from './typed-rows.ts';
import { z } from 'zod';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * Questions about a draft's changes that the merge rules, the ledger tables
 * and the CSV import ask, answered in SQL over `draft_entries` and the
 * ledger: what a delete-all replaces and removes, which creates stand on a
 * delete, which rows an apply holds.
 */
export interface DraftReads {
  /** The draft's open edits and deletes of rows a delete-all of the table removes (listings: with `activeOnly` as it says), read a row at a time. */
  replacedByDeleteAll(draftId: string, domain: LedgerDomain, activeOnly: boolean): Iterable<DraftEntry>;
  /** The draft's open creates of assets (listings) or SKUs (buy orders) the ledger holds, read a row at a time. */
  createsOfHeld(draftId: string, domain: LedgerDomain): Iterable<DraftEntry>;
  /** The ledger's rows a delete-all of the table removes (listings: with `activeOnly` as it says). */
  deleteAllRemoves(domain: LedgerDomain, activeOnly: boolean): number;
  /** What a delete-all would do to the draft: the open edits and deletes it replaces, the open creates it keeps. */
  deleteAllImpact(draftId: string, domain: LedgerDomain, activeOnly: boolean): { replacesChanges: number; keepsCreates: number };
  /** The targets of the draft's open change and open delete of a row (its key in the table). */
  openTargets(draftId: string, domain: LedgerDomain, key: string): string[];
  /** Targets locked in any draft: an apply owns them, or the trader must resolve them. */
  lockedTargets(): Set<string>;
}

const OPEN = "e.status NOT IN ('done', 'dropped')";

/** The rows of `replacedByDeleteAll`, after `SELECT … `: the draft and, for listings, `active_only` as parameters. */
const REPLACED: Readonly<Record<LedgerDomain, string>> = {
  listings: `FROM draft_entries e LEFT JOIN listings l ON l.asset_id = e.key
    WHERE e.draft_id = ? AND e.kind IN ('listing.edit', 'listing.delete') AND ${OPEN}
      AND (l.asset_id IS NULL OR ? = 0 OR l.state = 'active')`,
  buyOrders: `FROM draft_entries e WHERE e.draft_id = ? AND e.kind IN ('buyOrder.edit', 'buyOrder.delete') AND ${OPEN}`,
};

const slotKey = lazySchema(() => z.object({ slot: z.enum(['L', 'LD', 'LA', 'B', 'BD', 'BA']), key: z.string() }));

export function createDraftReads(store: Pick<Store, 'db'>): DraftReads {
  const { db } = store;
  const cols = entrySelect('e');
  const replaced = {
    listings: { rows: db.prepare(`SELECT ${cols} ${REPLACED.listings}`), count: db.prepare(`SELECT count(*) AS n ${REPLACED.listings}`) },
    buyOrders: { rows: db.prepare(`SELECT ${cols} ${REPLACED.buyOrders}`), count: db.prepare(`SELECT count(*) AS n ${REPLACED.buyOrders}`) },
  };
  const heldCreates = (table: string, key: string) => db.prepare(`SELECT ${cols} FROM draft_entries e WHERE e.draft_id = ? AND e.kind = ? AND ${OPEN}
    AND EXISTS (SELECT 1 FROM ${table} h WHERE h.${key} = e.key)`);
  const creates = { listings: heldCreates('listings', 'asset_id'), buyOrders: heldCreates('buy_orders', 'sku') };
  const openCreates = db.prepare(`SELECT count(*) AS n FROM draft_entries e WHERE e.draft_id = ? AND e.kind = ? AND ${OPEN}`);
  const removedListings = db.prepare("SELECT count(*) AS n FROM listings WHERE ? = 0 OR state = 'active'");
  const removedBuyOrders = db.prepare('SELECT count(*) AS n FROM buy_orders');
  const open = db.prepare(`SELECT slot, key FROM draft_entries e WHERE e.draft_id = ? AND e.slot IN (?, ?) AND e.key = ? AND ${OPEN}`);
  const locked = db.prepare(`SELECT DISTINCT slot, key FROM draft_entries WHERE status IN ${LOCKED_SQL}`);
  const replacedParams = (draftId: string, domain: LedgerDomain, activeOnly: boolean) => (domain === 'listings' ? [draftId, activeOnly ? 1 : 0] : [draftId]);
  const createKind = (domain: LedgerDomain) => (domain === 'listings' ? 'listing.create' : 'buyOrder.create');

  return {
    *replacedByDeleteAll(draftId, domain, activeOnly) {
      for (const row of replaced[domain].rows.iterate(...replacedParams(draftId, domain, activeOnly))) yield readEntry(row);
    },
    *createsOfHeld(draftId, domain) {
      for (const row of creates[domain].iterate(draftId, createKind(domain))) yield readEntry(row);
    },
    deleteAllRemoves: (domain, activeOnly) =>
      (domain === 'listings' ? countOf('listings', removedListings.get(activeOnly ? 1 : 0)) : countOf('buy_orders', removedBuyOrders.get())),
    deleteAllImpact: (draftId, domain, activeOnly) => ({
      replacesChanges: countOf('draft_entries', replaced[domain].count.get(...replacedParams(draftId, domain, activeOnly))),
      keepsCreates: countOf('draft_entries', openCreates.get(draftId, createKind(domain))),
    }),
    openTargets(draftId, domain, key) {
      const [edit, del]: [Slot, Slot] = domain === 'listings' ? ['L', 'LD'] : ['B', 'BD'];
      return parseRows('draft_entries', slotKey, open.all(draftId, edit, del, key)).map((r) => targetKey(r.slot, r.key));
    },
    lockedTargets: () => new Set(parseRows('draft_entries', slotKey, locked.all()).map((r) => targetKey(r.slot, r.key))),
  };
}
