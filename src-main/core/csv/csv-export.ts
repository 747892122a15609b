import type { ChangeStatus, DraftEntry } from '../drafts/change.ts';
import { notFound, quoted } from '../errors.ts';
import type { ItemNames } from '../items/index.ts';
import { splitTarget } from '../store/draft-columns.ts';
import type { Repos } from '../store/index.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { buyOrdersToCsv } from './csv-buy-orders.ts';
import { changesToCsv } from './csv-draft.ts';
import { fileText, withoutHeader, type FileShape } from './csv-format.ts';
import { EXPORT_DIALECTS, type CsvExportFormat } from '../../../src-shared/csv-dialect.ts';
import { listingsToCsv } from './csv-listings.ts';

/**
 * CSV export of the ledgers and of a draft, a page at a time, giving the
 * event loop back between pages so the heartbeat, the sends and the screens
 * never wait behind a file. Files carry item names beside the SKUs when the
 * names are known, in the format the import reads back, with a byte order
 * mark in front and in the shape the trader asked for (`format`: a comma
 * and a decimal point, or a semicolon and a decimal comma).
 */
export interface CsvExport {
  exportListings(format?: CsvExportFormat): Promise<string>;
  exportBuyOrders(format?: CsvExportFormat): Promise<string>;
  /** The changes the next apply would send (pending and failed): deletes first, then the rest in draft order. */
  exportDraft(draftId: string, format?: CsvExportFormat): Promise<string>;
}

/**
 * Rows written or read per step of an export: a step of 250 draft changes
 * (read, parsed, their SKUs looked up, written) takes some ms, so a page
 * asked meanwhile and a collection of the garbage fit beside it in a turn.
 */
const EXPORT_PAGE = 250;

export function createCsvExport(deps: {
  repos: Pick<Repos, 'listings' | 'buyOrders' | 'drafts'>;
  names: Pick<ItemNames, 'name'> | null;
  turn?: Turn;
}): CsvExport {
  const { repos, names } = deps;
  const turn = deps.turn ?? nextTurn;
  const nameOf = (sku: string) => (names === null || sku === '' ? '' : names.name(sku));

  /** The name of the item a change is about: its SKU, or the ledger's for its asset (`skus`: read for a page at once). */
  const changeName = (c: DraftEntry['change'], skus: ReadonlyMap<string, string>): string => {
    if ('sku' in c && typeof c.sku === 'string') return nameOf(c.sku);
    if ('asset_id' in c && typeof c.asset_id === 'string') return nameOf(skus.get(c.asset_id) ?? '');
    return '';
  };

  /**
   * A file of a ledger table, read a page at a time. The turn comes before
   * each page, the first too: the export is asked in a message, and a page
   * read in that message's turn, with the next read in the same loop's
   * immediates, would hold the thread for two pages.
   */
  async function exportTable<T>(pages: () => { length: number; at(i: number): T }, write: (rows: T[]) => string): Promise<string> {
    const parts: string[] = [];
    for (;;) {
      await turn();
      const page = pages();
      // The header once, on the first part (an empty table's file is the header alone).
      if (parts.length > 0 && page.length === 0) break;
      const rows: T[] = [];
      for (let i = 0; i < page.length; i++) rows.push(page.at(i));
      const text = write(rows);
      parts.push(parts.length === 0 ? text : withoutHeader(text));
      if (page.length === 0) break;
    }
    return wholeFile(parts);
  }

  /**
   * The parts joined into the file in a turn of their own, and handed on in
   * the next: the join copies the whole text, and what receives it copies it
   * once more (the worker sends it as UTF-8), each some ms at tens of MB.
   */
  async function wholeFile(parts: readonly string[]): Promise<string> {
    await turn();
    const text = fileText(parts);
    await turn();
    return text;
  }
  const shapeOf = (format: CsvExportFormat = 'comma'): FileShape => EXPORT_DIALECTS[format];

  return {
    exportListings: (format) => exportTable(repos.listings.checkedPages(EXPORT_PAGE), (rows) => listingsToCsv(rows, nameOf, shapeOf(format))),
    exportBuyOrders: (format) => exportTable(repos.buyOrders.checkedPages(EXPORT_PAGE), (rows) => buyOrdersToCsv(rows, nameOf, shapeOf(format))),
    async exportDraft(draftId, format) {
      const shape = shapeOf(format);
      if (!repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
      // Deletes first, as the apply runs them: a relist made before a later delete-all must come after it when the file
      // is read back. Delete-alls and deletes go by slot in key order (the primary key: few of a draft's rows, each
      // independent of the others); creates and edits in the order they were made.
      const statuses: ChangeStatus[] = ['pending', 'failed'];
      const parts: string[] = [];
      const write = (page: readonly DraftEntry[]) => {
        const changes = page.map((e) => e.change);
        // The SKUs of the page's listings in one query, not a row read and checked for each.
        const skus = repos.listings.skusOf(changes.flatMap((c) => ('asset_id' in c ? [c.asset_id] : [])));
        const text = changesToCsv(changes, (c) => changeName(c, skus), shape);
        parts.push(parts.length === 0 ? text : withoutHeader(text));
      };
      // Each page read and written in a turn of its own, the first too (as a ledger's, above).
      for (const slot of ['LA', 'BA', 'LD', 'BD'] as const) {
        for (let after: string | null = null; ;) {
          await turn();
          const page = repos.drafts.entriesOfSlot(draftId, slot, after, EXPORT_PAGE, statuses);
          const end = page.at(-1);
          if (end === undefined) break;
          write(page);
          after = splitTarget(end.target).key;
        }
      }
      const kinds = ['listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit'];
      for (let cursor: Parameters<Repos['drafts']['entriesPage']>[1] = null; ;) {
        await turn();
        const page = repos.drafts.entriesPage(draftId, cursor, EXPORT_PAGE, { kinds, statuses });
        const end = page.at(-1);
        if (end === undefined) break;
        write(page);
        cursor = { seq: end.seq, ...splitTarget(end.target) };
      }
      return wholeFile(parts.length === 0 ? [changesToCsv([], undefined, shape)] : parts);
    },
  };
}
