import type { SQLInputValue } from 'node:sqlite';
import { z } from 'zod';
import { changeStatus, type ChangeStatus } from '../../../src-shared/drafts.ts';
import { parseRow, parseRows } from './sql.ts';

/**
 * The small rows many queries answer, each with its schema: a count, a key,
 * a SKU. Read through `parseRow` like every row the store hands out, so a
 * query that answers something else fails naming what it read.
 */

/** `SELECT count(*) AS n …` (or any one number named `n`). */
export const countRow = z.object({ n: z.number() });

/** The number `n` of a query's one row; 0 when it answers none. */
export function countOf(what: string, row: unknown): number {
  return row === undefined ? 0 : parseRow(what, countRow, row).n;
}

/** `SELECT key …`: the keys of rows (asset IDs, SKUs, draft keys), in the order read. */
export const keyRow = z.object({ key: z.string() });
export const keysOf = (what: string, rows: readonly unknown[]): string[] => parseRows(what, keyRow, rows).map((r) => r.key);

/** `SELECT value …` of a key-value table (settings, meta), or undefined when the key has no row. */
export const valueRow = z.object({ value: z.string() });
export function valueOf(what: string, row: unknown): string | undefined {
  return row === undefined ? undefined : parseRow(what, valueRow, row).value;
}

/** `PRAGMA <name>`: its one row, whose column is the pragma's name. */
export function pragmaValue(what: string, row: unknown): string | number | undefined {
  return row === undefined ? undefined : parseRow(what, z.record(z.string(), z.union([z.string(), z.number()])), row)[what];
}

/** `SELECT rowid AS r …`. */
export const rowidRow = z.object({ r: z.number() });

/** `SELECT status, count(*) AS n … GROUP BY status`: a draft's changes counted by status. */
export function statusCounts(what: string, rows: readonly unknown[]): Partial<Record<ChangeStatus, number>> {
  return Object.fromEntries(parseRows(what, statusCountRow, rows).map((r) => [r.status, r.n]));
}
const statusCountRow = z.object({ status: changeStatus, n: z.number() });

/** `SELECT sku …`. */
export const skuRow = z.object({ sku: z.string() });
export const skusOf = (what: string, rows: readonly unknown[]): string[] => parseRows(what, skuRow, rows).map((r) => r.sku);

/** Named parameters: one set can serve several statements (see `statementCache`), each taking the ones it names. */
export type Params = Record<string, SQLInputValue>;
