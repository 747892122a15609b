import type { LedgerDomain } from '../../../src-shared/ledger.ts';
import type { Store } from './db.ts';
import { armsOf, scopeParams } from './ledger-arms.ts';
import { changedSql } from './ledger-order.ts';
import { changedRow } from './ledger-reads.ts';
import { parseRow, statementCache } from './sql.ts';

/**
 * What a few of a draft's keys add to a table's unfiltered counts (the
 * rows the draft creates, and the rows changed; store/ledger-reads.ts's
 * `counts` over every key), read with the same arms and "changed" test over
 * those keys alone. Counted before and after a change of those keys, the
 * difference is what the change moved the table's counts by, so the next
 * page need not count a 45,000-change draft again (~21 ms at 50,000 rows).
 * Without a delete-all: a draft's delete-all changes every row.
 */

/** How a table's unfiltered counts moved: rows created and rows changed (the rows a draft creates are changed ones too). */
export interface CountsMove {
  readonly created: number;
  readonly changed: number;
}

/** One arm's rows of the keys `:keys` (a JSON array), counted; each key is one lookup of its table's primary key or the draft's. */
export const keyCountSql = (domain: LedgerDomain, arm: 'created' | 'ledger'): string =>
  `SELECT count(*) AS n, sum(${changedSql(domain)}) AS c FROM (${armsOf(domain, false)[arm]}) WHERE key IN (SELECT value FROM json_each(:keys))`;

export type KeyCounts = (draftId: string, domain: LedgerDomain, keys: readonly string[]) => CountsMove;

export function createKeyCounts(store: Pick<Store, 'db'>): KeyCounts {
  const prepared = statementCache(store.db, 4);
  return (draftId, domain, keys) => {
    const params = { ...scopeParams({ draftId, deleteAll: null }), keys: JSON.stringify(keys) };
    const read = (arm: 'created' | 'ledger') => parseRow('a ledger table', changedRow, prepared(keyCountSql(domain, arm)).get(params));
    const created = read('created');
    return { created: created.n, changed: (created.c ?? 0) + (read('ledger').c ?? 0) };
  };
}
