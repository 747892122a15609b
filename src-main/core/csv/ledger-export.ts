import type { LedgerDomain, LedgerFilter } from '../../../src-shared/ledger.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import type { ItemNames } from '../items/item-names.ts';
import { createLedgerQueries } from '../ledger/ledger-query.ts';
import type { Store } from '../store/db.ts';
import { createLedgerRowsAt } from '../store/ledger-reads.ts';
import { schemaNameIndex } from '../store/name-index.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { buyOrdersToCsv } from './csv-buy-orders.ts';
import { listingsToCsv } from './csv-listings.ts';
import { fileText, withoutHeader } from './csv-format.ts';
import { EXPORT_DIALECTS, type CsvExportFormat } from '../../../src-shared/csv-dialect.ts';

/**
 * Export CSV of the Listings and Buy orders screens: the ledger's rows (what
 * the service holds, not the draft's pending values), those matching the
 * screen's filter or all of them, in the format the draft export and the
 * import share (spreadsheet-safe, with names), so a file exported and
 * imported back changes nothing. Rows the draft only creates are not in the
 * ledger and are not written. Read a page at a time with the tables' own
 * filter (so "the current filter" means the rows on screen), giving the
 * event loop back between pages.
 */
export interface LedgerExport {
  /** The rows of `domain` matching `filter` (all with null) as a CSV file in the shape `format` names, and how many. */
  exportLedger(domain: LedgerDomain, filter: LedgerFilter | null, format?: CsvExportFormat): Promise<{ csv: string; rows: number }>;
}

/**
 * Rows read and written per step. A step's rows are named as they are
 * written, and an item's first name costs the most: a thousand rows of new
 * SKUs held the worker some 30 ms, with a page or a beat waiting behind it.
 */
const PAGE_ROWS = 250;

export function createLedgerExport(deps: {
  store: Pick<Store, 'db' | 'ledgerVersion' | 'ledgerRowsVersion' | 'transaction'>;
  drafts: Pick<DraftService, 'version' | 'current' | 'patch'>;
  /** Where the name index notes the schema version it was built with. */
  settings: SettingsRepo;
  names: Pick<ItemNames, 'name' | 'describe' | 'searchWords' | 'partName'> | null;
  now: () => number;
  turn?: Turn;
}): LedgerExport {
  const { store, drafts, names } = deps;
  const turn = deps.turn ?? nextTurn;
  const nameOf = (sku: string) => (names === null || sku === '' ? '' : names.name(sku));
  const queries = createLedgerQueries({
    store, draftVersion: (id) => drafts.version(id), patch: (id, domain) => drafts.patch(id, domain), now: deps.now,
    ...(names ? { names, nameIndex: schemaNameIndex(store, deps.settings, names, ['ledger']) } : {}),
  });
  const rowsAt = createLedgerRowsAt(store);

  return {
    async exportLedger(domain, filter, format = 'comma') {
      const shape = EXPORT_DIALECTS[format];
      const parts: string[] = [];
      let rows = 0;
      for (let after = 0; ;) {
        const ids = queries.ledgerRowids(drafts.current(), domain, filter ?? {}, after, PAGE_ROWS);
        const text = domain === 'listings'
          ? listingsToCsv(rowsAt.listings(ids), nameOf, shape)
          : buyOrdersToCsv(rowsAt.buyOrders(ids), nameOf, shape);
        // The header once, on the first part.
        if (parts.length === 0 || ids.length > 0) parts.push(parts.length === 0 ? text : withoutHeader(text));
        rows += ids.length;
        if (ids.length < PAGE_ROWS) break;
        after = ids[ids.length - 1] as number;
        await turn();
      }
      return { csv: fileText(parts), rows };
    },
  };
}
