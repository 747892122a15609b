import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { CSV_IMPORT_MAX_CHARS } from '../../../src-shared/csv-parts.ts';
import { DomainError, notFound, quoted } from '../errors.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { ChangeStatus, DraftEntry, ParsedChangeInput } from '../drafts/change.ts';
import { buyOrdersToCsv, BUY_ORDER_COLUMNS, readBuyOrdersImport } from './csv-buy-orders.ts';
import type { ItemNames } from '../items/index.ts';
import { columnOf, type PriceColumn } from './csv-cells.ts';
import { itemLookup, lockedTargets, type ImportContext } from './csv-context.ts';
import { changesToCsv, DRAFT_COLUMNS, readDraftImport } from './csv-draft.ts';
import { partOrderRefusal, type CsvPartInput } from './csv-part-order.ts';
import { byLine, type CsvColumns, type CsvLineError, type CsvRecord, type SeenKeys } from './csv-format.ts';
import { LISTING_COLUMNS, listingsToCsv, readListingsImport } from './csv-listings.ts';
import { csvReader, type CsvSlice } from './csv-reader.ts';
import { createSpool, type CsvSpool } from '../store/csv-spool.ts';
import { ledgerLookup } from '../drafts/draft-context.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import { createScratch, type Scratch } from '../store/scratch-staging.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { splitTarget } from '../store/draft-columns.ts';
import { groupThousands } from '../../../src-shared/money.ts';

/**
 * CSV export and import of the ledgers and of a draft, as jobs that run a
 * slice at a time (a thousand rows or so, some milliseconds), giving the
 * event loop back between slices so the heartbeat, the sends and the screens
 * never wait behind a file; memory holds a slice, whatever the file's size.
 *
 * An import happens in two steps: the preview reads and checks the whole
 * file as it arrives, a part at a time (`startImport`, then `importPart`;
 * every bad line reported), and stores nothing but the file's text, kept
 * for the commit in the store's temporary database; `commitImport` applies
 * what the trader accepted, a slice per transaction, checked again. Adoption
 * writes the ledger (listings or buy orders already on the market);
 * everything else goes through the draft service, so its merge rules and
 * field rules are the only ones.
 */
export type CsvKind = 'listings' | 'buyOrders' | 'draft';

export interface CsvImportContext {
  /** The draft that rows become changes of: required for 'draft', and for listings without listing_id. */
  readonly draftId?: string | undefined;
}

/** Refused lines: the first few in line order, and how many in all. */
export interface CsvRefusals {
  readonly errors: readonly CsvLineError[];
  readonly errorCount: number;
}

export interface CsvPreview extends CsvRefusals {
  readonly token: string;
  readonly kind: CsvKind;
  /** Rows that would be imported if the trader accepts now. */
  readonly validCount: number;
}

export interface CsvCommitResult extends CsvRefusals {
  readonly imported: number;
}

export interface CsvService {
  exportListings(): Promise<string>;
  exportBuyOrders(): Promise<string>;
  /** The changes the next apply would send (pending and failed): deletes first, then the rest in draft order. */
  exportDraft(draftId: string): Promise<string>;
  /**
   * Starts the preview of a file that arrives in parts (`importPart`) and
   * answers its upload's ID. One at a time: starting another drops this one
   * (a trader who closed the import half-way, or chose another file), so an
   * upload left unfinished holds nothing for long. Rejects for a draft that
   * is not there.
   */
  startImport(kind: CsvKind, context?: CsvImportContext): string;
  /**
   * Reads the next part of an upload's file, checking the rows it completes;
   * with `last`, the file has ended and the answer is its preview (null
   * before). Rejects for an upload that is not under way (dropped by
   * another, failed, or ended), for a part that is not the next one (its
   * `seq`), and for a file past the size limit; a part that fails drops its
   * upload.
   */
  importPart(upload: string, part: CsvPartInput): Promise<CsvPreview | null>;
  /** Applies a preview's rows, checked again against the current ledger and draft. Rejects for an unknown or expired token. */
  commitImport(token: string): Promise<CsvCommitResult>;
}

export interface CsvServiceDeps {
  store: Store;
  repos: Repos;
  drafts: DraftService;
  /** Expiry of previews; default the store's clock. */
  clock?: Clock;
  /** How long a preview can be accepted; default 15 minutes. */
  previewTtlMs?: number;
  /** Previews kept at once (each keeps its file's text in the temporary database); the oldest go first. Default 4. */
  maxPreviews?: number;
  /** The most characters a file may hold; default CSV_IMPORT_MAX_CHARS. */
  maxImportChars?: number;
  /** Item names for the `name` column (export writes it, import resolves it); without them files carry SKUs only. */
  names?: Pick<ItemNames, 'name' | 'skuForName' | 'knownNames'> | null;
  /** How a job gives the event loop back between slices; default the next turn. */
  turn?: Turn;
  /** The most refused lines a result lists (it counts them all); default 200. */
  errorsListed?: number;
}

interface Pending {
  readonly kind: CsvKind;
  readonly spool: CsvSpool;
  readonly draftId: string | undefined;
  /** On the monotonic clock: the preview lasts a duration. */
  readonly expiresAt: number;
}

/** A file being read for a preview, as its parts arrive. */
interface Upload {
  readonly id: string;
  readonly kind: CsvKind;
  readonly draftId: string | undefined;
  readonly scratch: Scratch;
  readonly spool: CsvSpool;
  readonly job: FileJob;
  /** Characters received so far. */
  chars: number;
  /** Parts received so far: the next must be numbered one more. */
  received: number;
  /** The part being read: the next one waits for it. */
  reading: Promise<unknown>;
}

/** A file read part by part: `add` takes the next part, `end` the rest once the file has ended. */
interface FileJob {
  add(part: string): Promise<void>;
  end(): Promise<{ taken: number } & CsvRefusals>;
}

/** One slice of a file, sorted: rows to adopt into the ledger, inputs for the draft, refused lines. */
interface SliceWork {
  readonly listings: readonly Parameters<Repos['listings']['upsertMany']>[0][number][];
  readonly buyOrders: readonly Parameters<Repos['buyOrders']['upsertMany']>[0][number][];
  readonly changes: readonly { readonly line: number; readonly input: ParsedChangeInput }[];
  readonly errors: readonly CsvLineError[];
}

const COLUMNS: Readonly<Record<CsvKind, CsvColumns>> = { listings: LISTING_COLUMNS, buyOrders: BUY_ORDER_COLUMNS, draft: DRAFT_COLUMNS };

/** Rows written or read per step of an export. */
const EXPORT_PAGE = 500;

export function createCsvService(deps: CsvServiceDeps): CsvService {
  const { store, repos, drafts } = deps;
  const clock = deps.clock ?? store.clock;
  const ttl = deps.previewTtlMs ?? 15 * 60_000;
  const max = deps.maxPreviews ?? 4;
  const turn = deps.turn ?? nextTurn;
  const listed = deps.errorsListed ?? 200;
  const maxChars = deps.maxImportChars ?? CSV_IMPORT_MAX_CHARS;
  const ledger = ledgerLookup(repos);
  const previews = new Map<string, Pending>();
  let upload: Upload | null = null;
  const names = deps.names ?? null;
  const nameOf = (sku: string) => (names === null || sku === '' ? '' : names.name(sku));
  /** The SKUs the trader holds: a name matching one of them means that one. */
  const heldSkus = () => (store.db.prepare(`SELECT sku FROM (SELECT sku, min(rowid) AS first, 0 AS t FROM listings WHERE sku != '' GROUP BY sku
    UNION ALL SELECT sku, rowid, 1 FROM buy_orders) ORDER BY t, first`).all() as { sku: string }[]).map((r) => r.sku);

  function contextFor(kind: CsvKind, draftId: string | undefined): ImportContext {
    if (draftId !== undefined && !repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
    return {
      ledger,
      accounts: new Set(repos.accounts.list().map((a) => a.account_id)),
      mainAccount: repos.accounts.main()?.account_id ?? null,
      // Adoption writes the ledger; it must not change rows an apply is sending.
      locked: kind === 'draft' ? new Set<string>() : lockedTargets(store),
      draftOpen: draftId !== undefined,
      items: names === null ? null : itemLookup(names, heldSkus),
    };
  }

  function sortSlice(kind: CsvKind, records: readonly CsvRecord[], ctx: ImportContext, priceColumn: PriceColumn, seen: (what: string) => SeenKeys): SliceWork {
    const none = { listings: [], buyOrders: [], changes: [] };
    if (kind === 'listings') {
      const r = readListingsImport(records, ctx, priceColumn, seen);
      return { ...none, listings: r.adopt.map((a) => a.row), changes: r.create, errors: r.errors };
    }
    if (kind === 'buyOrders') {
      const r = readBuyOrdersImport(records, ctx, priceColumn, seen);
      return { ...none, buyOrders: r.adopt.map((a) => a.row), errors: r.errors };
    }
    const r = readDraftImport(records, ctx, priceColumn, seen);
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

  /** The draft's refusals of a slice's inputs, as lines of the file. */
  const mergeErrors = (work: SliceWork, priceColumn: PriceColumn, base: number, issues: readonly { index: number; field: string; message: string }[]): CsvLineError[] =>
    issues.map((i) => ({ line: work.changes[i.index - base]?.line ?? 1, reason: `${columnOf(i.field, priceColumn)}: ${i.message}` }));

  /**
   * Reads a file part by part, slice by slice: `each` checks (or writes) a
   * slice's rows and says how many it took; refusals are collected in line
   * order. Between slices the event loop is given back; then `checkWanted`
   * throws for a job no longer wanted, before it touches its tables again.
   */
  function fileJob(
    kind: CsvKind, draftId: string | undefined, scratch: Scratch,
    each: (work: SliceWork, priceColumn: PriceColumn) => { taken: number; refused: CsvLineError[] },
    checkWanted: () => void = () => undefined,
  ): FileJob {
    const found = refusals();
    let taken = 0;
    const result = () => ({ taken, ...found.result() });
    if (kind === 'draft' && draftId === undefined) {
      found.add([{ line: 1, reason: 'open or create a draft to import changes into' }]);
      return { add: () => Promise.resolve(), end: () => Promise.resolve(result()) };
    }
    const ctx = contextFor(kind, draftId);
    const reader = csvReader(COLUMNS[kind]);
    const take = async (slices: Iterable<CsvSlice>) => {
      for (const slice of slices) {
        const priceColumn = reader.priceColumn();
        const work = sortSlice(kind, slice.records, ctx, priceColumn, scratch.seen);
        const r = each(work, priceColumn);
        taken += r.taken;
        found.add([...slice.errors, ...work.errors, ...r.refused]);
        scratch.flush();
        await turn();
        checkWanted();
      }
    };
    return {
      add: (part) => take(reader.read(part)),
      end: async () => {
        await take(reader.end());
        return result();
      },
    };
  }

  /** Runs a job with its own scratch tables, emptied however it ends. */
  async function withScratch<T>(job: (scratch: Scratch) => Promise<T>): Promise<T> {
    const scratch = createScratch(store, turn);
    try {
      return await job(scratch);
    } finally {
      scratch.dispose();
    }
  }

  function forget(now: number) {
    for (const [token, p] of previews) {
      if (p.expiresAt > now) continue;
      previews.delete(token);
      p.spool.dispose();
    }
    for (const [token, p] of previews) {
      if (previews.size < max) break;
      previews.delete(token);
      p.spool.dispose();
    }
  }

  /** Lets go of an upload: its tables and the text it kept. */
  function drop(u: Upload) {
    if (upload === u) upload = null;
    u.scratch.dispose();
    u.spool.dispose();
  }

  const gone = () => notFound('This CSV import is no longer under way (another one started, or it stopped at an error); check the file again');

  /** The name of the item a change is about: its SKU, or the ledger's for its asset (`skus`: read for a page at once). */
  const changeName = (c: DraftEntry['change'], skus: ReadonlyMap<string, string>): string => {
    if ('sku' in c && typeof c.sku === 'string') return nameOf(c.sku);
    if ('asset_id' in c && typeof c.asset_id === 'string') return nameOf(skus.get(c.asset_id) ?? '');
    return '';
  };

  /** A file of a ledger table, read a page at a time. */
  async function exportTable<T>(pages: () => { length: number; at(i: number): T }, write: (rows: T[]) => string): Promise<string> {
    const parts: string[] = [];
    const next = pages;
    for (let page = next(); parts.length === 0 || page.length > 0; page = next()) {
      const rows: T[] = [];
      for (let i = 0; i < page.length; i++) rows.push(page.at(i));
      // The header once, on the first part.
      const text = write(rows);
      parts.push(parts.length === 0 ? text : text.slice(text.indexOf('\r\n') + 2));
      if (page.length === 0) break;
      await turn();
    }
    return parts.join('');
  }

  return {
    exportListings: () => exportTable(repos.listings.checkedPages(EXPORT_PAGE), (rows) => listingsToCsv(rows, nameOf)),
    exportBuyOrders: () => exportTable(repos.buyOrders.checkedPages(EXPORT_PAGE), (rows) => buyOrdersToCsv(rows, nameOf)),
    async exportDraft(draftId) {
      if (!repos.drafts.get(draftId)) throw notFound(`There is no draft ${quoted(draftId)}; it may have been discarded`);
      // Deletes first, as the apply runs them: a relist made before a later delete-all must come after it when the file
      // is read back. Delete-alls and deletes go by slot in key order (the primary key: few of a draft's rows, each
      // independent of the others); creates and edits in the order they were made.
      const statuses: ChangeStatus[] = ['pending', 'failed'];
      const parts: string[] = [];
      const write = async (page: readonly DraftEntry[]) => {
        const changes = page.map((e) => e.change);
        // The SKUs of the page's listings in one query, not a row read and checked for each.
        const skus = repos.listings.skusOf(changes.flatMap((c) => ('asset_id' in c ? [c.asset_id] : [])));
        const text = changesToCsv(changes, (c) => changeName(c, skus));
        parts.push(parts.length === 0 ? text : text.slice(text.indexOf('\r\n') + 2));
        await turn();
      };
      for (const slot of ['LA', 'BA', 'LD', 'BD'] as const) {
        for (let after: string | null = null; ;) {
          const page = repos.drafts.entriesOfSlot(draftId, slot, after, EXPORT_PAGE, statuses);
          if (page.length === 0) break;
          await write(page);
          after = splitTarget((page.at(-1) as DraftEntry).target).key;
        }
      }
      const kinds = ['listing.create', 'listing.edit', 'buyOrder.create', 'buyOrder.edit'];
      for (let cursor: Parameters<Repos['drafts']['entriesPage']>[1] = null; ;) {
        const page = repos.drafts.entriesPage(draftId, cursor, EXPORT_PAGE, { kinds, statuses });
        if (page.length === 0) break;
        await write(page);
        const end = page.at(-1) as DraftEntry;
        cursor = { seq: end.seq, ...splitTarget(end.target) };
      }
      return parts.length === 0 ? changesToCsv([]) : parts.join('');
    },
    startImport(kind, context = {}) {
      if (upload) drop(upload);
      const { draftId } = context;
      const id = randomUUID();
      const scratch = createScratch(store, turn);
      const spool = createSpool(store);
      try {
        const check = draftId === undefined ? null : drafts.checkInParts(draftId, scratch.staging);
        let index = 0;
        const job = fileJob(kind, draftId, scratch, (work, priceColumn) => {
          let taken = work.listings.length + work.buyOrders.length;
          let refused: CsvLineError[] = [];
          if (work.changes.length > 0 && check !== null) {
            const checked = check(work.changes.map((c) => c.input), index);
            refused = mergeErrors(work, priceColumn, index, checked.errors);
            index += work.changes.length;
            taken += checked.added;
          }
          return { taken, refused };
        }, () => {
          // Another upload started while this one gave the event loop back: its tables are gone already.
          if (upload?.id !== id) throw gone();
        });
        upload = { id, kind, draftId, scratch, spool, job, chars: 0, received: 0, reading: Promise.resolve() };
        return id;
      } catch (e) {
        scratch.dispose();
        spool.dispose();
        throw e;
      }
    },
    async importPart(id, { seq, text, last }) {
      const u = upload;
      if (u === null || u.id !== id) throw gone();
      const outOfOrder = partOrderRefusal(seq, u.received);
      if (outOfOrder) {
        drop(u);
        throw outOfOrder;
      }
      u.received += 1;
      // Parts are read in the order they came, one at a time.
      const read = u.reading.then(async (): Promise<CsvPreview | null> => {
        if (upload !== u) throw gone();
        if (u.chars + text.length > maxChars) {
          throw new DomainError('invalid', `The file is too large to import: a CSV file may hold up to ${groupThousands(maxChars)} characters; split it into smaller files`);
        }
        u.chars += text.length;
        u.spool.append(text);
        await u.job.add(text);
        if (!last) return null;
        const r = await u.job.end();
        upload = null;
        u.scratch.dispose();
        const now = clock.monotonic();
        forget(now);
        const token = randomUUID();
        previews.set(token, { kind: u.kind, spool: u.spool, draftId: u.draftId, expiresAt: now + ttl });
        return { token, kind: u.kind, validCount: r.taken, errors: r.errors, errorCount: r.errorCount };
      });
      u.reading = read.catch(() => undefined);
      try {
        return await read;
      } catch (e) {
        if (upload === u) drop(u);
        throw e;
      }
    },
    async commitImport(token) {
      const pending = previews.get(token);
      previews.delete(token);
      if (!pending || pending.expiresAt <= clock.monotonic()) {
        pending?.spool.dispose();
        throw notFound('This import preview has expired or was already imported; preview the file again');
      }
      // Read again, from the text the preview kept: the ledger or the draft may have changed since the preview.
      const r = await withScratch(async (scratch) => {
        const job = fileJob(pending.kind, pending.draftId, scratch, (work, priceColumn) => {
          store.transaction(() => {
            if (work.listings.length > 0) repos.listings.upsertMany(work.listings);
            if (work.buyOrders.length > 0) repos.buyOrders.upsertMany(work.buyOrders);
          });
          let taken = work.listings.length + work.buyOrders.length;
          let refused: CsvLineError[] = [];
          if (work.changes.length > 0 && pending.draftId !== undefined) {
            const added = drafts.addChanges(pending.draftId, work.changes.map((c) => c.input));
            refused = mergeErrors(work, priceColumn, 0, added.errors);
            taken += added.added;
          }
          return { taken, refused };
        });
        for (const part of pending.spool.parts()) await job.add(part);
        return job.end();
      }).finally(() => pending.spool.dispose());
      return { imported: r.taken, errors: r.errors, errorCount: r.errorCount };
    },
  };
}
