import { z } from 'zod';
import { accountId } from '../../../src-shared/fields.ts';
import type { LinkedTradeUrls } from '../api/schemas.ts';
import type { Store } from './db.ts';
import { parseRow, parseRows, sqlBool, toSqlBool } from './sql.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * The main account and the linked accounts the key may act for, with their
 * trade URLs and whether the heartbeat keeps them marked as automated.
 * Listings and buy orders name their owning account here.
 */
export const accountKind = z.enum(['main', 'linked']);

export const accountRow = lazySchema(() => z.object({
  account_id: accountId,
  kind: accountKind,
  name: z.string(),
  trade_url: z.string().nullable(),
  automated: sqlBool,
  updated_at: z.number().int(),
}));
export type AccountRow = z.output<typeof accountRow>;

export const accountInput = lazySchema(() => z.strictObject({
  account_id: accountId,
  kind: accountKind,
  name: z.string().max(200).optional(),
  trade_url: z.string().nullable().optional(),
  automated: z.boolean().optional(),
}));
export type AccountInput = z.input<typeof accountInput>;

export interface AccountsRepo {
  list(): AccountRow[];
  get(accountId: string): AccountRow | null;
  main(): AccountRow | null;
  /** Inserts or updates; fields left out keep their stored value. */
  upsert(input: AccountInput): AccountRow;
  /** Records what `get_linked_trade_urls` returned (adds accounts it names). */
  syncTradeUrls(urls: LinkedTradeUrls): void;
  setAutomated(accountIds: readonly string[], automated: boolean): void;
  remove(accountId: string): void;
}

export function createAccountsRepo(store: Store): AccountsRepo {
  const { db } = store;
  const selectAll = db.prepare('SELECT * FROM accounts ORDER BY kind DESC, account_id');
  const selectOne = db.prepare('SELECT * FROM accounts WHERE account_id = ?');
  const selectMain = db.prepare("SELECT * FROM accounts WHERE kind = 'main'");
  const upsertStmt = db.prepare(`
    INSERT INTO accounts (account_id, kind, name, trade_url, automated, updated_at)
    VALUES (:account_id, :kind, coalesce(:name, ''), :trade_url, coalesce(:automated, 0), :at)
    ON CONFLICT (account_id) DO UPDATE SET
      kind = excluded.kind,
      name = coalesce(:name, accounts.name),
      trade_url = CASE WHEN :keep_url THEN accounts.trade_url ELSE excluded.trade_url END,
      automated = coalesce(:automated, accounts.automated),
      updated_at = excluded.updated_at`);
  const setAutomatedStmt = db.prepare('UPDATE accounts SET automated = ?, updated_at = ? WHERE account_id = ?');
  const removeStmt = db.prepare('DELETE FROM accounts WHERE account_id = ?');

  const repo: AccountsRepo = {
    list: () => parseRows('accounts', accountRow, selectAll.all()),
    get(id) {
      const row = selectOne.get(id);
      return row ? parseRow('accounts', accountRow, row) : null;
    },
    main() {
      const row = selectMain.get();
      return row ? parseRow('accounts', accountRow, row) : null;
    },
    upsert(input) {
      const a = accountInput.parse(input);
      upsertStmt.run({
        account_id: a.account_id,
        kind: a.kind,
        name: a.name ?? null,
        trade_url: a.trade_url ?? null,
        keep_url: a.trade_url === undefined ? 1 : 0,
        automated: a.automated === undefined ? null : toSqlBool(a.automated),
        at: store.clock.now(),
      });
      const row = repo.get(a.account_id);
      if (!row) throw new Error('account vanished after upsert');
      return row;
    },
    syncTradeUrls(urls) {
      store.transaction(() => {
        repo.upsert({ account_id: urls.main_account.id64, kind: 'main', trade_url: urls.main_account.trade_url });
        for (const linked of urls.linked_accounts) {
          repo.upsert({ account_id: linked.id64, kind: 'linked', trade_url: linked.trade_url });
        }
      });
    },
    setAutomated(ids, automated) {
      const at = store.clock.now();
      store.transaction(() => {
        for (const id of ids) setAutomatedStmt.run(toSqlBool(automated), at, id);
      });
    },
    remove(id) {
      removeStmt.run(id);
    },
  };
  return repo;
}
