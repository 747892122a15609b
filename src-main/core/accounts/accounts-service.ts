import type { Scheduler } from '../scheduler/types.ts';
import type { AccountRow, AccountsRepo } from '../store/accounts-repo.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Clock } from '../clock.ts';

export interface AccountsSnapshot {
  main: AccountRow | null;
  linked: AccountRow[];
  /** When the service last listed the accounts (ms), null before the first read. */
  readAt: number | null;
}

export interface AccountsService {
  snapshot(): AccountsSnapshot;
  /** Reads the main and linked accounts with their trade URLs from the service. */
  refresh(): Promise<AccountsSnapshot>;
  /** Sets the trade URL of the main account, or of a linked account when `account` names one. */
  setTradeUrl(tradeUrl: string, account?: string): Promise<AccountsSnapshot>;
  /** Whether the heartbeat covers this linked account. */
  setAutomated(accountId: string, automated: boolean): AccountsSnapshot;
  /** Linked accounts the heartbeat names in `multiaccounts`. */
  automatedLinked(): string[];
  on(event: 'changed', listener: (snapshot: AccountsSnapshot) => void): Unsubscribe;
}

/**
 * The accounts the key acts for. The service is the source of the list and of
 * the trade URLs; which linked accounts the heartbeat covers is the trader's
 * choice, kept in the store.
 */
export function createAccountsService(deps: {
  repo: AccountsRepo;
  scheduler: Pick<Scheduler, 'request'>;
  clock: Clock;
}): AccountsService {
  const { repo, scheduler } = deps;
  const events = createEmitter<{ changed: AccountsSnapshot }>();
  let readAt: number | null = null;

  const snapshot = (): AccountsSnapshot => {
    const rows = repo.list();
    return {
      main: rows.find((r) => r.kind === 'main') ?? null,
      linked: rows.filter((r) => r.kind === 'linked'),
      readAt,
    };
  };
  const changed = () => {
    const snap = snapshot();
    events.emit('changed', snap);
    return snap;
  };

  const service: AccountsService = {
    snapshot,
    async refresh() {
      const urls = await scheduler.request('get_linked_trade_urls', {}, { lane: 'interactive' });
      const known = new Set(repo.list().map((r) => r.account_id));
      repo.syncTradeUrls(urls);
      // A linked account seen for the first time is covered by the heartbeat by default:
      // its listings would otherwise show as not automated.
      const fresh = urls.linked_accounts.map((a) => a.id64).filter((id) => !known.has(id));
      if (fresh.length > 0) repo.setAutomated(fresh, true);
      readAt = deps.clock.now();
      return changed();
    },
    async setTradeUrl(tradeUrl, account) {
      const main = repo.main();
      const proxy = account !== undefined && account !== main?.account_id ? account : undefined;
      await scheduler.request(
        'set_trade_url',
        { trade_url: tradeUrl, ...(proxy === undefined ? {} : { multiaccount_proxy: proxy }) },
        { lane: 'interactive' },
      );
      const target = account ?? main?.account_id;
      if (target !== undefined) {
        repo.upsert({ account_id: target, kind: proxy === undefined ? 'main' : 'linked', trade_url: tradeUrl });
      }
      return changed();
    },
    setAutomated(accountId, automated) {
      repo.setAutomated([accountId], automated);
      return changed();
    },
    automatedLinked: () => repo.list().filter((r) => r.kind === 'linked' && r.automated).map((r) => r.account_id),
    on: (event, listener) => events.on(event, listener),
  };
  return service;
}
