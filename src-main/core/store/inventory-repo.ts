import { z } from 'zod';
import type { InventoryRow } from './inventory-row.ts';
import type { Store } from './db.ts';
import { parseRow, parseRows, toSqlBool } from './sql.ts';
import { withoutDiskWait } from './without-disk-wait.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The inventories read from Steam, kept with when they were read. A read
 * writes its pages under a new generation as they arrive and swaps it in when
 * the last page is in: until then, and if it is cut short, the last complete
 * copy is the one shown. Old copies are deleted a chunk at a time after.
 */
/** Why the last read failed; `stopped`: it ended early (an answer that would not end) and its items are the copy. */
export const inventoryProblemKind = z.enum(['private', 'rate_limited', 'unreachable', 'unreadable', 'stopped']);

export const inventoryReadRow = lazySchema(() => z.object({
  account: z.string(),
  generation: z.number().int(),
  /** When the current copy's read ended (ms); null before the first complete read. */
  read_at: z.number().int().nullable(),
  /** Items that read found (the desk's own count, not Steam's). */
  total: z.number().int().nullable(),
  problem_kind: inventoryProblemKind.nullable(),
  problem: z.string().nullable(),
  problem_at: z.number().int().nullable(),
}));
export type InventoryReadRow = z.output<typeof inventoryReadRow>;

/** The newest copy written for an account (null before any). */
const generationRow = lazySchema(() => z.object({ g: z.number().nullable() }));
/** Items kept per account. */
const accountCountRow = lazySchema(() => z.object({ account: z.string(), n: z.number() }));

export interface InventoryProblemRecord {
  readonly kind: z.infer<typeof inventoryProblemKind>;
  readonly message: string;
  readonly at: number;
}

export interface InventoryRepo {
  reads(): InventoryReadRow[];
  read(account: string): InventoryReadRow | null;
  /** Starts a read of `account`: returns the generation its pages are written under. */
  beginRead(account: string): number;
  /**
   * Writes a page's items under `generation`, numbered from `position` (Steam's
   * order). Each is searched by its name and its quality's: an Unusual's name
   * says its effect, not "Unusual", and a trader searches for both.
   */
  writePage(account: string, generation: number, position: number, rows: readonly InventoryRow[]): void;
  /** The read is over: its items become the account's copy, read at `at`, `total` of them; the problem is cleared. */
  finishRead(account: string, generation: number, at: number, total: number): void;
  /** Deletes up to `limit` items of `account` from copies other than the current one and `keep`; returns how many. */
  prune(account: string, limit: number, keep?: number): number;
  /** Why the last attempt failed (null: clear it); the kept copy stays. */
  noteProblem(account: string, problem: InventoryProblemRecord | null): void;
  /** Items kept per account (current copies only). */
  counts(): Map<string, number>;
}

export function createInventoryRepo(store: Store): InventoryRepo {
  const { db } = store;
  const ensure = db.prepare('INSERT OR IGNORE INTO inventory_reads (account) VALUES (?)');
  const selectRead = db.prepare('SELECT * FROM inventory_reads WHERE account = ?');
  const maxGeneration = db.prepare('SELECT max(generation) AS g FROM inventory_items WHERE account = ?');
  const insert = db.prepare(`INSERT INTO inventory_items (account, generation, asset_id, position, sku, name, search, quality, strange,
    effect, killstreak, wear, australium, festivized, craftable, tradable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const finish = db.prepare(`UPDATE inventory_reads SET generation = ?, read_at = ?, total = ?, problem_kind = NULL, problem = NULL,
    problem_at = NULL WHERE account = ?`);
  const prune = db.prepare(`DELETE FROM inventory_items WHERE rowid IN (SELECT rowid FROM inventory_items
    WHERE account = ? AND generation NOT IN (?, ?) LIMIT ?)`);
  const problem = db.prepare('UPDATE inventory_reads SET problem_kind = ?, problem = ?, problem_at = ? WHERE account = ?');
  const counts = db.prepare(`SELECT i.account, count(*) AS n FROM inventory_items i
    JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation GROUP BY i.account`);

  return {
    reads: () => parseRows('inventory_reads', inventoryReadRow, db.prepare('SELECT * FROM inventory_reads ORDER BY account').all()),
    read(account) {
      const row = selectRead.get(account);
      return row === undefined ? null : parseRow('inventory_reads', inventoryReadRow, row);
    },
    beginRead(account) {
      return store.transaction(() => {
        ensure.run(account);
        const current = parseRow('inventory_reads', inventoryReadRow, selectRead.get(account)).generation;
        const written = parseRow('inventory_items', generationRow, maxGeneration.get(account)).g ?? 0;
        return Math.max(current, written) + 1;
      });
    },
    writePage(account, generation, position, rows) {
      // A page of a read under way is not the trader's data: Steam gives it again, and until the read is
      // swapped in nothing shows it. So it is committed without waiting for the disk (synchronous=NORMAL;
      // the WAL keeps the file whole), and the swap, which makes it the kept copy, waits as every write does.
      withoutDiskWait(store, () => store.transaction(() => {
        rows.forEach((r, i) => {
          const search = `${r.name}\n${r.qualityName}\n${r.sku}\n${r.asset_id}`.toLowerCase();
          insert.run(account, generation, r.asset_id, position + i, r.sku, r.name, search, r.quality, toSqlBool(r.strange), r.effect,
            r.killstreak, r.wear, toSqlBool(r.australium), toSqlBool(r.festivized), toSqlBool(r.craftable), toSqlBool(r.tradable));
        });
      }));
    },
    finishRead(account, generation, at, total) {
      store.transaction(() => void finish.run(generation, at, total, account));
    },
    prune(account, limit, keep) {
      const row = selectRead.get(account);
      const current = row === undefined ? 0 : parseRow('inventory_reads', inventoryReadRow, row).generation;
      return Number(store.transaction(() => prune.run(account, current, keep ?? current, limit)).changes);
    },
    noteProblem(account, next) {
      store.transaction(() => {
        ensure.run(account);
        problem.run(next?.kind ?? null, next?.message ?? null, next?.at ?? null, account);
      });
    },
    counts() {
      return new Map(parseRows('inventory_items', accountCountRow, counts.all()).map((r) => [r.account, r.n]));
    },
  };
}
