import { randomUUID } from '../node-crypto.ts';
import type { CsvDialect, CsvDialectChoice } from '../../../src-shared/csv-dialect.ts';
import { CSV_IMPORT_MAX_CHARS } from '../../../src-shared/csv-parts.ts';
import { groupThousands } from '../../../src-shared/money.ts';
import type { Clock } from '../clock.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import { DomainError, notFound } from '../errors.ts';
import type { ItemNames } from '../items/index.ts';
import { createSpool, type CsvSpool } from '../store/csv-spool.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import { createScratch, type Scratch } from '../store/scratch-staging.ts';
import { waitForDisk, withoutDiskWait } from '../store/without-disk-wait.ts';
import { nextTurn, type Turn } from '../turn.ts';
import { createCsvExport, type CsvExport } from './csv-export.ts';
import { createFileJobs, type CsvKind, type CsvRefusals, type FileJob, type NotInInventory } from './csv-file-job.ts';
import type { CsvLineError } from './csv-format.ts';
import { partOrderRefusal, type CsvPartInput } from './csv-part-order.ts';

export type { CsvKind, CsvRefusals };

/**
 * CSV export and import of the ledgers and of a draft (csv-export.ts,
 * csv-file-job.ts), as jobs that run a slice at a time (a thousand rows or
 * so, some milliseconds), giving the
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
export interface CsvImportContext {
  /** The draft that rows become changes of: required for 'draft', and for listings without listing_id. */
  readonly draftId?: string | undefined;
  /** The separator and decimal mark the trader chose for the file (else detected). */
  readonly dialect?: CsvDialectChoice | undefined;
}

export interface CsvPreview extends CsvRefusals {
  readonly token: string;
  readonly kind: CsvKind;
  /** Rows that would be imported if the trader accepts now. */
  readonly validCount: number;
  /** How the file was read: its separator, decimal mark, byte order mark and line ends. */
  readonly dialect: CsvDialect;
  /** New listings whose asset the account's inventory as last read does not hold (drafted all the same). */
  readonly notInInventory: NotInInventory;
}

export interface CsvCommitResult extends CsvRefusals {
  readonly imported: number;
  /** Lines refused beyond those the preview refused: the ledger or the draft changed since the check. */
  readonly changedSince: number;
}

export interface CsvService extends CsvExport {
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
  /** What the trader chose for the file, read the same way again at the commit. */
  readonly choice: CsvDialectChoice;
  /** Lines the preview refused. */
  readonly refused: number;
  /** On the monotonic clock: the preview lasts a duration. */
  readonly expiresAt: number;
}

/** A file being read for a preview, as its parts arrive. */
interface Upload {
  readonly id: string;
  readonly kind: CsvKind;
  readonly draftId: string | undefined;
  readonly choice: CsvDialectChoice;
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

export function createCsvService(deps: CsvServiceDeps): CsvService {
  const { store, repos, drafts } = deps;
  const clock = deps.clock ?? store.clock;
  const ttl = deps.previewTtlMs ?? 15 * 60_000;
  const max = deps.maxPreviews ?? 4;
  const turn = deps.turn ?? nextTurn;
  const maxChars = deps.maxImportChars ?? CSV_IMPORT_MAX_CHARS;
  const previews = new Map<string, Pending>();
  let upload: Upload | null = null;
  const names = deps.names ?? null;
  const { fileJob, mergeErrors } = createFileJobs({ store, repos, names, turn, errorsListed: deps.errorsListed ?? 200 });

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

  return {
    ...createCsvExport({ repos, names, turn }),
    startImport(kind, context = {}) {
      if (upload) drop(upload);
      const { draftId } = context;
      const choice = context.dialect ?? {};
      const id = randomUUID();
      const scratch = createScratch(store, turn);
      const spool = createSpool(store);
      try {
        const check = draftId === undefined ? null : drafts.checkInParts(draftId, scratch.staging);
        let index = 0;
        const job = fileJob(kind, draftId, scratch, (work, prices) => {
          let taken = work.listings.length + work.buyOrders.length;
          let refused: CsvLineError[] = [];
          if (work.changes.length > 0 && check !== null) {
            const checked = check(work.changes.map((c) => c.input), index);
            refused = mergeErrors(work, prices, index, checked.errors);
            index += work.changes.length;
            taken += checked.added;
          }
          return { taken, refused };
        }, () => {
          // Another upload started while this one gave the event loop back: its tables are gone already.
          if (upload?.id !== id) throw gone();
        }, choice);
        upload = { id, kind, draftId, choice, scratch, spool, job, chars: 0, received: 0, reading: Promise.resolve() };
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
        // The part is kept (deflated on libuv's pool) while the loop reads it.
        await Promise.all([u.spool.append(text), u.job.add(text)]);
        if (!last) return null;
        const r = await u.job.end();
        upload = null;
        u.scratch.dispose();
        const now = clock.monotonic();
        forget(now);
        const token = randomUUID();
        previews.set(token, { kind: u.kind, spool: u.spool, draftId: u.draftId, choice: u.choice, refused: r.errorCount, expiresAt: now + ttl });
        return { token, kind: u.kind, validCount: r.taken, errors: r.errors, errorCount: r.errorCount, dialect: r.dialect, notInInventory: r.notInInventory };
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
        // Each slice's writes commit without waiting for the disk, and the import waits for it once, however it ends
        // (a slice's rows are the trader's as soon as written, but two syncs a slice, 1,600 for 200,000 rows, each held
        // the worker for as long as the disk took; the log's one sync at the end makes them all as durable).
        const job = fileJob(pending.kind, pending.draftId, scratch, (work, prices) => withoutDiskWait(store, () => {
          store.transaction(() => {
            if (work.listings.length > 0) repos.listings.upsertMany(work.listings);
            if (work.buyOrders.length > 0) repos.buyOrders.upsertMany(work.buyOrders);
          });
          let taken = work.listings.length + work.buyOrders.length;
          let refused: CsvLineError[] = [];
          if (work.changes.length > 0 && pending.draftId !== undefined) {
            const added = drafts.addChanges(pending.draftId, work.changes.map((c) => c.input));
            refused = mergeErrors(work, prices, 0, added.errors);
            taken += added.added;
          }
          return { taken, refused };
        }), undefined, pending.choice);
        try {
          for await (const part of pending.spool.parts()) await job.add(part);
          return await job.end();
        } finally {
          waitForDisk(store);
        }
      }).finally(() => pending.spool.dispose());
      return { imported: r.taken, errors: r.errors, errorCount: r.errorCount, changedSince: Math.max(0, r.errorCount - pending.refused) };
    },
  };
}
