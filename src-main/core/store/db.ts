import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { systemClock, type Clock } from '../clock.ts';
import { storeBusy, storeFailure } from '../errors.ts';
import { LATEST_VERSION, migrate, userVersion } from './migrations.ts';
import { removeLeftoverScratch } from './scratch-file.ts';
import { pragmaValue } from './typed-rows.ts';

/**
 * The profile's database: one SQLite file per profile, opened by the
 * composition root with a path. The store is the record of what the account has
 * on the market (the service cannot list it back), so it is opened for
 * durability first: WAL with synchronous=FULL makes every committed draft edit
 * or journal entry survive a power cut, and foreign keys are enforced.
 */
export interface Store {
  readonly db: DatabaseSync;
  readonly path: string;
  /** Time for `updated_at` stamps; the composition root injects the app clock. */
  readonly clock: Clock;
  /**
   * Runs `fn` in one committed transaction (nested calls become savepoints).
   * Returns what `fn` returns; rolls back and rethrows when it throws or the
   * COMMIT fails, and the store stays usable. A full disk or an I/O error is
   * thrown as a DomainError of kind `disk_full` or `io`.
   */
  transaction<T>(fn: () => T): T;
  /**
   * A full disk on demand, for tests and benchmarks: SQLite answers "database
   * or disk is full" once the file would grow past `pages` pages (never below
   * its size now). `null` lifts the limit: "space freed".
   */
  setPageLimit(pages: number | null): void;
  /** Bumped whenever listings or buy orders change, so in-memory views can tell they are stale. */
  readonly ledgerVersion: number;
  /**
   * Bumped only when rows may have come or gone (not when a row's price,
   * quantity or note changed): what the table holds, for figures that depend
   * on nothing else, such as the unfiltered counts an apply's edits leave as
   * they were.
   */
  readonly ledgerRowsVersion: number;
  /** `values`: only fields of rows already held changed; anything else (the default) may have added or removed rows. */
  markLedgerChanged(what?: 'rows' | 'values'): void;
  /** Told on every ledger change (the bridge announces them, batched). */
  onLedgerChanged(listener: () => void): () => void;
  close(): void;
}

export interface OpenStoreOptions {
  clock?: Clock;
  /** How long a write waits for another connection's lock (e.g. a second process). */
  busyTimeoutMs?: number;
  /**
   * Called before migrations change a database that has data (a backup is
   * made here); a failure leaves the database as it was and is thrown.
   */
  beforeMigrate?: (db: DatabaseSync, fromVersion: number) => void;
}

/**
 * A database that could not be opened or brought up to date: which file,
 * with SQLite's (or the file system's) error as its cause and message.
 */
export class StoreOpenError extends Error {
  override readonly name = 'StoreOpenError';
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.path = path;
  }
}

/**
 * Opens (creating when absent) the profile database and brings its schema
 * up to date. Throws a StoreOpenError naming the file when it cannot.
 */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  const db = openDatabase(path, options);
  removeLeftoverScratch(path);
  let depth = 0;
  // Set when SQLite itself ended the transaction under a nested step (see `undo`).
  let lost: unknown = null;
  const defaultPageLimit = Number(pragmaValue('max_page_count', db.prepare('PRAGMA max_page_count').get()));

  /**
   * Takes back a failed step: the transaction, or for a nested step its
   * savepoint. A full disk or an I/O error (and a COMMIT that failed for any
   * reason) may have made SQLite roll the whole transaction back already;
   * then there is nothing to take back, but an enclosing step that carries
   * on must not write outside a transaction: a new one is opened for its
   * statements, and the outermost step rolls it back and fails.
   */
  function undo(outermost: boolean, savepoint: string, error: unknown): void {
    if (!db.isTransaction) {
      if (outermost) return;
      lost ??= error;
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch {
        // Nothing to hold the enclosing step's statements: the outermost step still fails.
      }
      return;
    }
    if (!outermost && lost) return;
    try {
      db.exec(outermost ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
    } catch {
      // The step's own error is the one to report; the outermost step rolls back what is left.
      if (!outermost) lost ??= error;
    }
  }
  let ledgerVersion = 0;
  let ledgerRowsVersion = 0;
  const ledgerListeners = new Set<() => void>();
  const store: Store = {
    db,
    path,
    clock: options.clock ?? systemClock,
    get ledgerVersion() {
      return ledgerVersion;
    },
    get ledgerRowsVersion() {
      return ledgerRowsVersion;
    },
    markLedgerChanged(what = 'rows') {
      ledgerVersion += 1;
      if (what === 'rows') ledgerRowsVersion += 1;
      for (const listener of [...ledgerListeners]) listener();
    },
    onLedgerChanged(listener) {
      ledgerListeners.add(listener);
      return () => ledgerListeners.delete(listener);
    },
    transaction<T>(fn: () => T): T {
      const outermost = depth === 0;
      const savepoint = `sp${depth}`;
      try {
        db.exec(outermost ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
      } catch (error) {
        // Another connection held the write lock for the whole busy timeout: the trader's "try again", not a bug.
        throw storeBusy(error) ?? storeFailure(error) ?? error;
      }
      if (outermost) lost = null;
      depth += 1;
      try {
        const result = fn();
        // A nested step lost the whole transaction and `fn` went on regardless: its work cannot be kept either.
        if (lost) throw lost;
        db.exec(outermost ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        undo(outermost, savepoint, error);
        throw storeFailure(error) ?? error;
      } finally {
        depth -= 1;
      }
    },
    setPageLimit(pages) {
      db.exec(`PRAGMA max_page_count = ${pages === null ? defaultPageLimit : Math.max(1, Math.floor(pages))}`);
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
  return store;
}

/** A file that does not begin with SQLite's header: refused before SQLite opens it, and would tidy its -wal and -shm away. */
export class NotADatabaseError extends Error {
  override readonly name = 'NotADatabaseError';
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function checkHeader(path: string): void {
  let head: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      head = Buffer.alloc(SQLITE_HEADER.length);
      head = head.subarray(0, readSync(fd, head, 0, head.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // An empty file is a new database to SQLite.
  if (head.length > 0 && !head.equals(SQLITE_HEADER)) throw new NotADatabaseError('file is not a database');
}

function openDatabase(path: string, options: OpenStoreOptions): DatabaseSync {
  let db: DatabaseSync | null = null;
  try {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      checkHeader(path);
    }
    db = new DatabaseSync(path, {
      enableForeignKeyConstraints: true,
      timeout: options.busyTimeoutMs ?? 5_000,
    });
    applyPragmas(db);
    const from = userVersion(db);
    if (from > 0 && from < LATEST_VERSION) options.beforeMigrate?.(db, from);
    migrate(db);
    return db;
  } catch (error) {
    if (db?.isOpen) db.close();
    throw new StoreOpenError(path, error);
  }
}

function applyPragmas(db: DatabaseSync): void {
  const mode = pragmaValue('journal_mode', db.prepare('PRAGMA journal_mode = WAL').get());
  // An in-memory database reports 'memory'; every file-backed profile must be WAL.
  if (mode !== 'wal' && mode !== 'memory') {
    throw new Error(`could not switch the database to WAL (got ${String(mode)})`);
  }
  // FULL: a commit is on disk before it is acknowledged, in WAL mode too.
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  // Case-insensitive search as the screens mean it (any script, not ASCII alone): the ledger filters call it.
  db.function('fold', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
}

/** Reads a pragma's single value, for tests and diagnostics. */
export function readPragma(store: Pick<Store, 'db'>, name: 'journal_mode' | 'synchronous' | 'foreign_keys' | 'user_version'): string | number {
  const value = pragmaValue(name, store.db.prepare(`PRAGMA ${name}`).get());
  if (value === undefined) throw new Error(`pragma ${name} returned nothing`);
  return value;
}
