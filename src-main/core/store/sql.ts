import { z } from 'zod';
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite';
import type { Params } from './typed-rows.ts';
import type { Store } from './db.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';
import { safeParseWarming } from '../../../src-shared/plain-parse.ts';

/**
 * Small helpers shared by the repositories: SQLite has no booleans and hands
 * back untyped records, so every row goes through a zod schema on the way out.
 */

/** A 0/1 column read as a boolean. */
export const sqlBool = lazySchema(() => z.union([z.literal(0), z.literal(1)]).transform((v) => v === 1));

/** A boolean written to a 0/1 column. */
export const toSqlBool = (value: boolean): number => (value ? 1 : 0);

/** A TEXT column holding JSON, parsed then checked with `schema`. */
export function jsonColumn<T extends z.ZodType>(schema: T) {
  return z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
  }).pipe(schema);
}

/**
 * Rows read at once and each checked when asked for: checking tens of
 * thousands of rows can then be spread over several turns (the drafts'
 * warm-up), and a check that fails names the table as `parseRow` does.
 */
export interface CheckedRows<T> {
  readonly length: number;
  at(index: number): T;
}

export function checkedRows<T extends z.ZodType>(table: string, schema: T, rows: readonly unknown[]): CheckedRows<z.output<T>> {
  return { length: rows.length, at: (index) => parseRow(table, schema, rows[index]) };
}

const pageRowid = z.object({ page_rowid: z.number() });

/**
 * A table read a page at a time in rowid order (the order its `all()` reads):
 * each call gives the next page, an empty one once the table is through. So
 * even reading tens of thousands of rows can be spread over several turns.
 * Pages read at different times are one state of the table only while
 * nothing writes to it meanwhile: the caller checks that (the ledger version).
 */
export function rowidPages<T extends z.ZodType>(db: DatabaseSync, table: string, schema: T, pageSize: number): () => CheckedRows<z.output<T>> {
  const select = db.prepare(`SELECT rowid AS page_rowid, * FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`);
  let after = 0;
  return () => {
    const rows = select.all(after, pageSize);
    const last = rows.at(-1);
    if (last !== undefined) after = parseRow(table, pageRowid, last).page_rowid;
    return checkedRows(table, schema, rows);
  };
}

/** Parses every row, naming the table in the error when one does not fit. */
export function parseRows<T extends z.ZodType>(table: string, schema: T, rows: readonly unknown[]): z.output<T>[] {
  return rows.map((row) => parseRow(table, schema, row));
}

/**
 * How many rows a schema reads on zod's plain path before its compiled one
 * (safeParseWarming): a start reads the first rows of many tables (settings,
 * pragmas, the counts kept, the first page), each once or a few times, while
 * a job reading thousands goes on compiled after these.
 */
const PLAIN_ROWS = 200;

export function parseRow<T extends z.ZodType>(table: string, schema: T, row: unknown): z.output<T> {
  const result = safeParseWarming(schema, row, PLAIN_ROWS);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`a row of ${table} does not fit its schema: ${issue?.path.join('.') ?? '?'} ${issue?.message ?? ''}`);
  }
  return result.data;
}

/**
 * A statement's rows as objects of one shape, for reads of many rows. node:sqlite
 * makes each row a null-prototype object in V8's dictionary mode, where every
 * field read is a hash lookup: checking a page of 100 ledger rows (41 columns)
 * took 1.1 ms from those against 0.5 ms from objects laid out alike. So the
 * rows are read as arrays and laid into plain objects by the statement's
 * column names (a name given twice keeps its last value, as node:sqlite's
 * objects do). Takes what `all()` takes.
 */
export function plainRows(statement: StatementSync, ...params: [Params?, ...SQLInputValue[]] | SQLInputValue[]): Record<string, SQLOutputValue>[] {
  const names = statement.columns().map((c) => c.name);
  statement.setReturnArrays(true);
  let arrays: SQLOutputValue[][];
  try {
    arrays = Reflect.apply(statement.all, statement, params) as SQLOutputValue[][];
  } finally {
    // The statement may be shared: its other reads still get objects.
    statement.setReturnArrays(false);
  }
  return arrays.map((values) => {
    const row: Record<string, SQLOutputValue> = {};
    names.forEach((name, i) => (row[name] = values[i] as SQLOutputValue));
    return row;
  });
}

/** Binds a list of values as `(?, ?, …)` for `IN` clauses. */
export function placeholders(values: readonly SQLInputValue[]): string {
  return `(${values.map(() => '?').join(', ')})`;
}

/** Splits a list so an `IN (…)` never exceeds SQLite's bound-parameter limit. */
export function chunked<T>(values: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/**
 * Deletes the rows of `table` whose `column` is one of `values`, in one
 * transaction, in chunks under the bound-parameter limit. Table and column
 * names come from the repositories' own code, never from input.
 */
export function deleteWhereIn(store: Pick<Store, 'db' | 'transaction'>, table: string, column: string, values: readonly string[]): number {
  let removed = 0;
  store.transaction(() => {
    for (const part of chunked(values)) {
      removed += Number(store.db.prepare(`DELETE FROM ${table} WHERE ${column} IN ${placeholders(part)}`).run(...part).changes);
    }
  });
  return removed;
}

/** A ledger write of one row or many (one transaction, one timestamp) that marks the ledger changed. */
export function ledgerWrites<I>(store: Pick<Store, 'clock' | 'transaction' | 'markLedgerChanged'>, write: (input: I, at: number) => void) {
  return {
    one(input: I): void {
      write(input, store.clock.now());
      store.markLedgerChanged();
    },
    many(inputs: readonly I[]): void {
      const at = store.clock.now();
      store.transaction(() => {
        for (const input of inputs) write(input, at);
      });
      store.markLedgerChanged();
    },
  };
}

/**
 * Statements prepared once per SQL text (for SQL built from a query's shape), up to `max` of them before they are
 * all prepared again. Each takes the named parameters it uses from a larger set, so one parameter object can serve
 * several statements.
 */
export function statementCache(db: Pick<DatabaseSync, 'prepare'>, max: number): (sql: string) => StatementSync {
  const statements = new Map<string, StatementSync>();
  return (sql) => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size >= max) statements.clear();
      s = db.prepare(sql);
      s.setAllowUnknownNamedParameters(true);
      statements.set(sql, s);
    }
    return s;
  };
}
