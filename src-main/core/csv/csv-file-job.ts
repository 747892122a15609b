import type { ParsedChangeInput } from '../drafts/change.ts';
import { ledgerLookup } from '../drafts/draft-context.ts';
import { notFound, quoted } from '../errors.ts';
import type { ItemNames } from '../items/index.ts';
import type { Store } from '../store/db.ts';
import { createDraftReads } from '../store/draft-reads.ts';
import type { Repos } from '../store/index.ts';
import { createKeptItems } from '../store/kept-items.ts';
import { heldSkus } from '../store/ledger-reads.ts';
import type { Scratch } from '../store/scratch-staging.ts';
import type { Turn } from '../turn.ts';
import { BUY_ORDER_COLUMNS, readBuyOrdersImport } from './csv-buy-orders.ts';
import type { CsvDialect, CsvDialectChoice } from '../../../src-shared/csv-dialect.ts';
import { columnOf, type PriceFormat } from './csv-cells.ts';
import { itemLookup, type ImportContext } from './csv-context.ts';
import { DRAFT_COLUMNS, readDraftImport } from './csv-draft.ts';
import { byLine, type CsvColumns, type CsvLineError, type CsvRecord, type SeenKeys } from './csv-format.ts';
import { LISTING_COLUMNS, readListingsImport } from './csv-listings.ts';
import { csvReader, type CsvSlice } from './csv-reader.ts';
import { decimalOfPrices, decimalOfSeparator } from './csv-sniff.ts';

/**
 * A CSV file read for an import, part by part and slice by slice (a
 * thousand rows or so, some milliseconds): each slice's rows sorted into
 * adoptions for the ledger and inputs for a draft, checked against the
 * ledger, the known accounts and the rows an apply holds, and its refused
 * lines kept in line order. The preview and the commit of an import
 * (csv-service.ts) read a file the same way; only what they do with a
 * slice differs.
 */

export type CsvKind = 'listings' | 'buyOrders' | 'draft';

/** Refused lines: the first few in line order, and how many in all. */
export interface CsvRefusals {
  readonly errors: readonly CsvLineError[];
  readonly errorCount: number;
}

/** New listings of a file whose asset the account's inventory as last read does not hold: how many, and the first few. */
export interface NotInInventory {
  readonly count: number;
  readonly sample: readonly { readonly line: number; readonly assetId: string }[];
}

/** A file read part by part: `add` takes the next part, `end` the rest once the file has ended, and how it was written. */
export interface FileJob {
  add(part: string): Promise<void>;
  end(): Promise<{ taken: number; dialect: CsvDialect; notInInventory: NotInInventory } & CsvRefusals>;
}

/** One slice of a file, sorted: rows to adopt into the ledger, inputs for the draft, refused lines. */
export interface SliceWork {
  readonly listings: readonly Parameters<Repos['listings']['upsertMany']>[0][number][];
  readonly buyOrders: readonly Parameters<Repos['buyOrders']['upsertMany']>[0][number][];
  readonly changes: readonly { readonly line: number; readonly input: ParsedChangeInput }[];
  readonly errors: readonly CsvLineError[];
  /** New listings drafted although the account's inventory as last read does not hold their asset. */
  readonly notInInventory: readonly { readonly line: number; readonly assetId: string }[];
}

/** Lines a result names of those whose asset the inventory does not hold. */
const SAMPLE = 20;

const COLUMNS: Readonly<Record<CsvKind, CsvColumns>> = { listings: LISTING_COLUMNS, buyOrders: BUY_ORDER_COLUMNS, draft: DRAFT_COLUMNS };

export interface FileJobsDeps {
  store: Store;
  repos: Repos;
  names: Pick<ItemNames, 'name' | 'skuForName' | 'knownNames'> | null;
  turn: Turn;
  /** The most refused lines a result lists (it counts them all). */
  errorsListed: number;
}

export interface FileJobs {
  /**
   * Reads a file part by part, slice by slice: `each` checks (or writes) a
   * slice's rows and says how many it took; refusals are collected in line
   * order. Before each slice the event loop is given back; then `checkWanted`
   * throws for a job no longer wanted, before it touches its tables again.
   * `choice`: the separator and decimal mark the trader chose for the file.
   */
  fileJob(
    kind: CsvKind, draftId: string | undefined, scratch: Scratch,
    each: (work: SliceWork, prices: PriceFormat) => { taken: number; refused: CsvLineError[] },
    checkWanted?: () => void,
    choice?: CsvDialectChoice,
  ): FileJob;
  /** The draft's refusals of a slice's inputs (indexed from `base`), as lines of the file. */
  mergeErrors(work: SliceWork, prices: PriceFormat, base: number, issues: readonly { index: number; field: string; message: string }[]): CsvLineError[];
}

export function createFileJobs(deps: FileJobsDeps): FileJobs {
  const { store, repos, names, turn } = deps;
  const listed = deps.errorsListed;
  const ledger = ledgerLookup(repos);
  const reads = createDraftReads(store);
  const kept = createKeptItems(store.db);
  /** The SKUs the trader holds: a name matching one of them means that one. */
  const held = () => heldSkus(store);

  function contextFor(kind: CsvKind, draftId: string | undefined): ImportContext {
    if (draftId !== undefined && !repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
    return {
      ledger,
      accounts: new Set(repos.accounts.list().map((a) => a.account_id)),
      mainAccount: repos.accounts.main()?.account_id ?? null,
      // Adoption writes the ledger; it must not change rows an apply is sending.
      locked: kind === 'draft' ? new Set<string>() : reads.lockedTargets(),
      draftOpen: draftId !== undefined,
      items: names === null ? null : itemLookup(names, held),
      kept,
    };
  }

  function sortSlice(kind: CsvKind, records: readonly CsvRecord[], ctx: ImportContext, prices: PriceFormat, seen: (what: string) => SeenKeys): SliceWork {
    const none = { listings: [], buyOrders: [], changes: [], notInInventory: [] };
    if (kind === 'listings') {
      const r = readListingsImport(records, ctx, prices, seen);
      return { ...none, listings: r.adopt.map((a) => a.row), changes: r.create, errors: r.errors, notInInventory: r.notInInventory };
    }
    if (kind === 'buyOrders') {
      const r = readBuyOrdersImport(records, ctx, prices, seen);
      return { ...none, buyOrders: r.adopt.map((a) => a.row), errors: r.errors };
    }
    const r = readDraftImport(records, ctx, prices, seen);
    return { ...none, changes: r.changes, errors: r.errors };
  }

  /** Refusals in line order, the first `listed` kept. */
  function refusals() {
    const errors: CsvLineError[] = [];
    let errorCount = 0;
    return {
      add(slice: readonly CsvLineError[]) {
        for (const e of byLine(slice)) {
          errorCount += 1;
          if (errors.length < listed) errors.push(e);
        }
      },
      result: (): CsvRefusals => ({ errors, errorCount }),
    };
  }

  const mergeErrors: FileJobs['mergeErrors'] = (work, prices, base, issues) =>
    issues.map((i) => ({ line: work.changes[i.index - base]?.line ?? 1, reason: `${columnOf(i.field, prices.column)}: ${i.message}` }));

  const fileJob: FileJobs['fileJob'] = (kind, draftId, scratch, each, checkWanted = () => undefined, choice = {}) => {
    const found = refusals();
    let taken = 0;
    const missing = { count: 0, sample: [] as { line: number; assetId: string }[] };
    const reader = csvReader(COLUMNS[kind], choice.separator);
    /** The file's decimal mark: the trader's, else told once by the first rows' prices or by the separator. */
    let decimal: Pick<CsvDialect, 'decimal' | 'decimalFrom'> | null = choice.decimal === undefined ? null : { decimal: choice.decimal, decimalFrom: 'chosen' };
    const decimalOf = (records: readonly CsvRecord[]): Pick<CsvDialect, 'decimal' | 'decimalFrom'> => {
      const shown = decimalOfPrices(records.flatMap((r) => (r.cells.price === undefined ? [] : [r.cells.price])));
      if (shown !== null) return { decimal: shown, decimalFrom: 'prices' };
      const usual = decimalOfSeparator(reader.dialect().separator);
      return usual === null ? { decimal: null, decimalFrom: 'none' } : { decimal: usual, decimalFrom: 'separator' };
    };
    const result = () => ({
      taken, dialect: { ...reader.dialect(), ...(decimal ?? { decimal: null, decimalFrom: 'none' as const }) }, notInInventory: missing, ...found.result(),
    });
    if (kind === 'draft' && draftId === undefined) {
      found.add([{ line: 1, reason: 'open or create a draft to import changes into' }]);
      return { add: () => Promise.resolve(), end: () => Promise.resolve(result()) };
    }
    const ctx = contextFor(kind, draftId);
    const take = async (slices: Iterable<CsvSlice>) => {
      for (const slice of slices) {
        // The turn comes before each slice, the first too: a part arrives in a message, and a slice read there and
        // the next read in the same loop's immediates would hold the thread for two slices, a page or a beat between.
        await turn();
        checkWanted();
        if (decimal === null && slice.records.length > 0) decimal = decimalOf(slice.records);
        const prices: PriceFormat = { column: reader.priceColumn(), decimal: decimal?.decimal ?? null };
        const work = sortSlice(kind, slice.records, ctx, prices, scratch.seen);
        const r = each(work, prices);
        taken += r.taken;
        missing.count += work.notInInventory.length;
        missing.sample.push(...work.notInInventory.slice(0, SAMPLE - missing.sample.length));
        found.add([...slice.errors, ...work.errors, ...r.refused]);
        scratch.flush();
      }
    };
    return {
      add: (part) => take(reader.read(part)),
      end: async () => {
        await take(reader.end());
        return result();
      },
    };
  };

  return { fileJob, mergeErrors };
}
