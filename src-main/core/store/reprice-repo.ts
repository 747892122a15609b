import { z } from 'zod';
import { repriceRule, type RepriceRule } from '../../../src-shared/pricing.ts';
import { repriceRowView, repriceRunView } from '../../../src-shared/reprice.ts';
import type { Store } from './db.ts';
import { chunked, jsonColumn, parseRow, parseRows, placeholders } from './sql.ts';
import { countOf, skusOf } from './typed-rows.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * Repricing's rows (migration 021): the trader's rules, each run of a
 * reprice, and per run the rows it changed (with why) and the rows a rule
 * would move but could not (with why). Also the two questions a reprice asks
 * of the rest of the store: what else holds a row in a draft, and how many
 * of a SKU the trader holds.
 */

export const ruleRow = lazySchema(() => z.object({ rule_id: z.number().int(), position: z.number().int(), rule: jsonColumn(repriceRule), updated_at: z.number().int() }));
export type RuleRow = z.output<typeof ruleRow>;

export const runRow = lazySchema(() => z.object({
  run_id: z.number().int(),
  kind: repriceRunView.shape.kind,
  state: repriceRunView.shape.state,
  started_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  draft_id: z.string().nullable(),
  held_draft_id: z.string().nullable(),
  apply_run_id: z.number().int().nullable(),
  changed: z.number().int(),
  marked: z.number().int(),
  held: z.number().int(),
  unchanged: z.number().int(),
  problem: z.string().nullable(),
}));
export type RunRow = z.output<typeof runRow>;

export const repriceRowSchema = lazySchema(() => z.object({
  domain: repriceRowView.shape.domain,
  key: z.string(),
  sku: z.string(),
  outcome: repriceRowView.shape.outcome,
  rule_id: z.number().int().nullable(),
  before: z.number().int().nullable(),
  after: z.number().int().nullable(),
  reason: z.string(),
  mark: z.string().nullable(),
}));
export type RepriceRow = z.output<typeof repriceRowSchema>;

const draftName = lazySchema(() => z.object({ draft_id: z.string(), name: z.string() }));
const entryKey = z.object({ key: z.string() });
const heldRow = lazySchema(() => z.object({ sku: z.string(), n: z.number().int() }));

export interface RepriceRepo {
  rules(): RuleRow[];
  addRule(rule: RepriceRule, at: number): number;
  changeRule(id: number, rule: RepriceRule, at: number): boolean;
  removeRule(id: number): boolean;
  /** The rules in this order (ids not named keep their place after). */
  orderRules(ids: readonly number[]): void;
  startRun(kind: RunRow['kind'], at: number): number;
  updateRun(id: number, fields: Partial<Pick<RunRow, 'state' | 'finished_at' | 'draft_id' | 'held_draft_id' | 'apply_run_id' | 'changed' | 'marked' | 'held' | 'unchanged' | 'problem'>>): void;
  run(id: number): RunRow | null;
  runs(limit: number): RunRow[];
  addRows(runId: number, rows: readonly RepriceRow[]): void;
  /** A run's rows of one outcome (all when null), in table and key order, a page at a time. */
  rows(runId: number, outcome: RepriceRow['outcome'] | null, offset: number, limit: number): RepriceRow[];
  countRows(runId: number, outcome: RepriceRow['outcome'] | null): number;
  /** The rows of a table other drafts hold a change of (those not named in `except`), with the first such draft's name. */
  inOtherDrafts(domain: 'listings' | 'buyOrders', keys: readonly string[], except: readonly string[]): Map<string, string>;
  /** The SKUs the ledger holds (standing listings, buy orders): what the price sources are asked about. */
  ledgerSkus(): string[];
  /** Units of each SKU the trader holds: listings standing and items of the inventory not listed. */
  heldCounts(skus: readonly string[]): Map<string, number>;
}

/**
 * The SKUs of standing listings and of buy orders. Each SKU is taken from the
 * SKU index alone and then checked for one standing listing, instead of every
 * listing's row read for its state: at 50,000 listings the latter held the data
 * worker about 50 ms at each price source's read.
 */
export const LEDGER_SKUS = `SELECT sku FROM (SELECT DISTINCT sku FROM listings WHERE sku != '') AS s
  WHERE EXISTS (SELECT 1 FROM listings l WHERE l.sku = s.sku AND l.state IN ('active', 'inactive'))
  UNION SELECT sku FROM buy_orders`;

const OPEN = "('pending', 'queued', 'sent', 'failed', 'unknown')";

export function createRepriceRepo(store: Pick<Store, 'db' | 'transaction'>): RepriceRepo {
  const { db } = store;
  const allRules = db.prepare('SELECT * FROM reprice_rules ORDER BY position, rule_id');
  const insertRule = db.prepare('INSERT INTO reprice_rules (position, rule, updated_at) VALUES ((SELECT coalesce(max(position), 0) + 1 FROM reprice_rules), ?, ?)');
  const updateRule = db.prepare('UPDATE reprice_rules SET rule = ?, updated_at = ? WHERE rule_id = ?');
  const deleteRule = db.prepare('DELETE FROM reprice_rules WHERE rule_id = ?');
  const placeRule = db.prepare('UPDATE reprice_rules SET position = ? WHERE rule_id = ?');
  const draftsByAge = db.prepare('SELECT draft_id, name FROM drafts ORDER BY created_at');
  const insertRun = db.prepare("INSERT INTO reprice_runs (kind, state, started_at) VALUES (?, 'building', ?)");
  const oneRun = db.prepare('SELECT * FROM reprice_runs WHERE run_id = ?');
  const lastRuns = db.prepare('SELECT * FROM reprice_runs ORDER BY run_id DESC LIMIT ?');
  const insertRow = db.prepare(`INSERT OR REPLACE INTO reprice_rows (run_id, domain, key, sku, outcome, rule_id, before, after, reason, mark)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const cols = 'domain, key, sku, outcome, rule_id, before, after, reason, mark';
  const ledgerSkus = db.prepare(LEDGER_SKUS);

  return {
    rules: () => parseRows('reprice_rules', ruleRow, allRules.all()),
    addRule: (rule, at) => Number(insertRule.run(JSON.stringify(rule), at).lastInsertRowid),
    changeRule: (id, rule, at) => Number(updateRule.run(JSON.stringify(rule), at, id).changes) > 0,
    removeRule: (id) => Number(deleteRule.run(id).changes) > 0,
    orderRules(ids) {
      store.transaction(() => {
        const rest = parseRows('reprice_rules', ruleRow, allRules.all()).map((r) => r.rule_id).filter((id) => !ids.includes(id));
        [...ids, ...rest].forEach((id, i) => placeRule.run(i + 1, id));
      });
    },
    startRun: (kind, at) => Number(insertRun.run(kind, at).lastInsertRowid),
    updateRun(id, fields) {
      const keys = Object.keys(fields) as (keyof typeof fields)[];
      if (keys.length === 0) return;
      db.prepare(`UPDATE reprice_runs SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE run_id = ?`).run(...keys.map((k) => fields[k] ?? null), id);
    },
    run(id) {
      const row = oneRun.get(id);
      return row === undefined ? null : parseRow('reprice_runs', runRow, row);
    },
    runs: (limit) => parseRows('reprice_runs', runRow, lastRuns.all(limit)),
    addRows(runId, rows) {
      store.transaction(() => {
        for (const r of rows) insertRow.run(runId, r.domain, r.key, r.sku, r.outcome, r.rule_id, r.before, r.after, r.reason, r.mark);
      });
    },
    rows(runId, outcome, offset, limit) {
      const where = outcome === null ? '' : 'AND outcome = ?';
      const params = outcome === null ? [runId, limit, offset] : [runId, outcome, limit, offset];
      return parseRows('reprice_rows', repriceRowSchema, db.prepare(`SELECT ${cols} FROM reprice_rows WHERE run_id = ? ${where} ORDER BY outcome, domain, key LIMIT ? OFFSET ?`).all(...params));
    },
    countRows(runId, outcome) {
      const where = outcome === null ? '' : 'AND outcome = ?';
      return countOf('reprice_rows', db.prepare(`SELECT count(*) AS n FROM reprice_rows WHERE run_id = ? ${where}`).get(...(outcome === null ? [runId] : [runId, outcome])));
    },
    inOtherDrafts(domain, keys, except) {
      // Draft by draft, on the entries' primary key (draft, slot, key): one query over every draft's entries
      // read them all, the reprice's own draft among them, and a part took longer the more the draft held.
      // A delete-all ('LA'/'BA', key '') holds every row of its table.
      const slots = domain === 'listings' ? "('L', 'LD', 'LA')" : "('B', 'BD', 'BA')";
      const skip = new Set(except);
      const out = new Map<string, string>();
      for (const draft of parseRows('drafts', draftName, draftsByAge.all())) {
        if (skip.has(draft.draft_id)) continue;
        for (const part of chunked(keys.filter((k) => !out.has(k)), 400)) {
          const sql = `SELECT key FROM draft_entries WHERE draft_id = ? AND slot IN ${slots} AND key IN ${placeholders([...part, ''])} AND status IN ${OPEN}`;
          for (const r of parseRows('draft_entries', entryKey, db.prepare(sql).all(draft.draft_id, ...part, ''))) {
            if (r.key === '') for (const k of part) out.set(k, draft.name);
            else out.set(r.key, draft.name);
          }
        }
      }
      return out;
    },
    ledgerSkus: () => skusOf('listings', ledgerSkus.all()),
    heldCounts(skus) {
      const out = new Map<string, number>();
      for (const part of chunked([...new Set(skus)], 400)) {
        const list = placeholders(part);
        const sql = `SELECT sku, count(*) AS n FROM (
            SELECT asset_id, sku FROM listings WHERE state IN ('active', 'inactive') AND sku IN ${list}
            UNION SELECT i.asset_id, i.sku FROM inventory_items i JOIN inventory_reads r ON r.account = i.account AND r.generation = i.generation
              WHERE i.sku IN ${list}
          ) GROUP BY sku`;
        for (const r of parseRows('listings', heldRow, db.prepare(sql).all(...part, ...part))) out.set(r.sku, r.n);
      }
      return out;
    },
  };
}
