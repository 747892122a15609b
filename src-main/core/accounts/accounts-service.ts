import type { ResponseOf } from '../api/endpoints.ts';
import type { Scheduler } from '../scheduler/types.ts';
import { INTERACTIVE_DEADLINE_MS } from '../scheduler/types.ts';
import { createRetryingRead, type ReadState } from '../scheduler/retrying-read.ts';
import type { AccountRow, AccountsRepo } from '../store/accounts-repo.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { Clock } from '../clock.ts';
import { conflict, refused } from '../errors.ts';
import { tradeUrlProblem } from '../../../src-shared/trade-url.ts';

export type LinkedTradeUrls = ResponseOf<'get_linked_trade_urls'>;

export interface AccountsSnapshot {
  main: AccountRow | null;
  linked: AccountRow[];
  /** When the service last listed the accounts (ms), null before the first read. */
  readAt: number | null;
  /** How reading the list goes: "reading accounts, retrying in 40 s" and why, or done. */
  read: ReadState;
}

export interface AccountsService {
  snapshot(): AccountsSnapshot;
  /** Reads the accounts from the service until a read succeeds, with backoff (call once at start). */
  start(): void;
  stop(): void;
  /**
   * Reads the main and linked accounts with their trade URLs from the
   * service now, or joins the read on its way; rejects within 30 s.
   */
  refresh(): Promise<AccountsSnapshot>;
  /** How reading the list goes (also in every snapshot). */
  readState(): ReadState;
  /**
   * Takes a list the same key just read from this service elsewhere (a key
   * test made before the desk went live): the screens and the first beat
   * know the accounts at once; the service is read again in its turn.
   */
  adopt(urls: LinkedTradeUrls): AccountsSnapshot;
  /** Sets the trade URL of the main account, or of a linked account when `account` names one. */
  setTradeUrl(tradeUrl: string, account?: string): Promise<AccountsSnapshot>;
  /** Whether the heartbeat covers this linked account. */
  setAutomated(accountId: string, automated: boolean): AccountsSnapshot;
  /** Linked accounts the heartbeat names in `multiaccounts`. */
  automatedLinked(): string[];
  /** Every ID the key acts for: the main account and the linked ones. */
  ownIds(): string[];
  on(event: 'changed', listener: (snapshot: AccountsSnapshot) => void): Unsubscribe;
}

/**
 * The accounts the key acts for. The service is the source of the list and of
 * the trade URLs; which linked accounts the heartbeat covers is the trader's
 * choice, kept in the store. Without the list the desk knows no main account
 * (creates are refused, linked accounts never join the heartbeat), so the
 * read at start is tried until it succeeds.
 */
export function createAccountsService(deps: {
  repo: AccountsRepo;
  scheduler: Pick<Scheduler, 'request'>;
  clock: Clock;
}): AccountsService {
  const { repo, scheduler } = deps;
  const events = createEmitter<{ changed: AccountsSnapshot }>();

  const store = (urls: LinkedTradeUrls) => {
    const known = new Set(repo.list().map((r) => r.account_id));
    repo.syncTradeUrls(urls);
    // A linked account seen for the first time is covered by the heartbeat by default:
    // its listings would otherwise show as not automated.
    const fresh = urls.linked_accounts.map((a) => a.id64).filter((id) => !known.has(id));
    if (fresh.length > 0) repo.setAutomated(fresh, true);
  };

  const list = createRetryingRead({
    clock: deps.clock,
    what: 'get_linked_trade_urls',
    async read(signal) {
      store(await scheduler.request('get_linked_trade_urls', {}, { lane: 'interactive', signal, retries: 0 }));
    },
  });

  const snapshot = (): AccountsSnapshot => {
    const rows = repo.list();
    const read = list.state();
    return {
      main: rows.find((r) => r.kind === 'main') ?? null,
      linked: rows.filter((r) => r.kind === 'linked'),
      readAt: read.readAt,
      read,
    };
  };
  const changed = () => {
    const snap = snapshot();
    events.emit('changed', snap);
    return snap;
  };
  // Every step of a read (reading, retrying, done) is news for the screen, and success is news for the heartbeat.
  list.on('state', () => changed());

  const service: AccountsService = {
    snapshot,
    start: () => list.start(),
    stop: () => list.stop(),
    async refresh() {
      await list.read(INTERACTIVE_DEADLINE_MS);
      return snapshot();
    },
    readState: () => list.state(),
    adopt(urls) {
      store(urls);
      return changed();
    },
    async setTradeUrl(tradeUrl, account) {
      const main = repo.main();
      const owner = account ?? main?.account_id;
      if (owner === undefined) throw conflict('The main account is not known yet (the accounts list has not been read), so its trade URL cannot be checked; try again in a moment');
      // The rule the editor applies as the URL is typed, with the account it is for: never send another account's URL.
      const problem = tradeUrlProblem(tradeUrl, owner);
      if (problem !== null) throw refused(`Trade URL for ${owner === main?.account_id ? 'the main account' : `linked account ${owner}`} not saved: ${problem}`);
      const proxy = account !== undefined && account !== main?.account_id ? account : undefined;
      await scheduler.request(
        'set_trade_url',
        { trade_url: tradeUrl, ...(proxy === undefined ? {} : { multiaccount_proxy: proxy }) },
        { lane: 'interactive' },
      );
      repo.upsert({ account_id: owner, kind: proxy === undefined ? 'main' : 'linked', trade_url: tradeUrl });
      return changed();
    },
    setAutomated(accountId, automated) {
      repo.setAutomated([accountId], automated);
      return changed();
    },
    automatedLinked: () => repo.list().filter((r) => r.kind === 'linked' && r.automated).map((r) => r.account_id),
    ownIds: () => repo.list().map((r) => r.account_id),
    on: (event, listener) => events.on(event, listener),
  };
  return service;
}
