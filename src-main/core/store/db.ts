import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { systemClock, type Clock } from '../clock.ts';
import { storeBusy } from '../errors.ts';
import { migrate } from './migrations.ts';

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
   * Returns what `fn` returns; rolls back and rethrows when it throws.
   */
  transaction<T>(fn: () => T): T;
  /** Bumped whenever listings or buy orders change, so in-memory views can tell they are stale. */
  readonly ledgerVersion: number;
  markLedgerChanged(): void;
  /** Told on every ledger change (the bridge announces them, batched). */
  onLedgerChanged(listener: () => void): () => void;
  close(): void;
}

export interface OpenStoreOptions {
  clock?: Clock;
  /** How long a write waits for another connection's lock (e.g. a second process). */
  busyTimeoutMs?: number;
}

/** Opens (creating when absent) the profile database and brings its schema up to date. */
export function openStore(path: string, options: OpenStoreOptions = {}): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path, {
    enableForeignKeyConstraints: true,
    timeout: options.busyTimeoutMs ?? 5_000,
  });
  try {
    applyPragmas(db);
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  let depth = 0;
  let ledgerVersion = 0;
  const ledgerListeners = new Set<() => void>();
  const store: Store = {
    db,
    path,
    clock: options.clock ?? systemClock,
    get ledgerVersion() {
      return ledgerVersion;
    },
    markLedgerChanged() {
      ledgerVersion += 1;
      for (const listener of [...ledgerListeners]) listener();
    },
    onLedgerChanged(listener) {
      ledgerListeners.add(listener);
      return () => ledgerListeners.delete(listener);
    },
    transaction<T>(fn: () => T): T {
      const savepoint = `sp${depth}`;
      try {
        db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
      } catch (error) {
        // Another connection held the write lock for the whole busy timeout: the trader's "try again", not a bug.
        throw storeBusy(error) ?? error;
      }
      depth += 1;
      try {
        const result = fn();
        depth -= 1;
        db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        depth -= 1;
        db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw error;
      }
    },
    close() {
      if (db.isOpen) db.close();
    },
  };
  return store;
}

function applyPragmas(db: DatabaseSync): void {
  const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: string } | undefined;
  // An in-memory database reports 'memory'; every file-backed profile must be WAL.
  if (mode?.journal_mode !== 'wal' && mode?.journal_mode !== 'memory') {
    throw new Error(`could not switch the database to WAL (got ${String(mode?.journal_mode)})`);
  }
  // FULL: a commit is on disk before it is acknowledged, in WAL mode too.
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  // Case-insensitive search as the screens mean it (any script, not ASCII alone): the ledger filters call it.
  db.function('fold', { deterministic: true }, (text) => (typeof text === 'string' ? text.toLowerCase() : text));
}

/** Reads a pragma's single value, for tests and diagnostics. */
export function readPragma(store: Pick<Store, 'db'>, name: 'journal_mode' | 'synchronous' | 'foreign_keys' | 'user_version'): string | number {
  const row = store.db.prepare(`PRAGMA ${name}`).get() as Record<string, string | number> | undefined;
  const value = row?.[name];
  if (value === undefined) throw new Error(`pragma ${name} returned nothing`);
  return value;
}
