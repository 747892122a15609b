import { createMarketplaceClient, type MarketplaceClient, type RateLimitInfo, type Reach } from '../api/client.ts';
import { RATE_WINDOW_MS, type EndpointName } from '../api/endpoints.ts';
import type { Clock } from '../clock.ts';
import { createScheduler, INTERACTIVE_DEADLINE_MS } from '../scheduler/index.ts';
import type { LinkedTradeUrls } from '../accounts/accounts-service.ts';
import type { Scheduler } from '../scheduler/types.ts';
import type { KeyService } from './key-service.ts';
import { recentAnswer, type AccountsAnswer, type BalanceAnswer, type KeyTestTarget } from './key-test.ts';

/**
 * Testing the key while the desk is in sandbox mode. The stored key belongs
 * to the live service and the simulator never sees it, so the test asks the
 * live URL, through a client and scheduler of its own (the rate limits hold;
 * the sandbox's budget is the simulator's). It sends only when the trader
 * asks, and its answers set the key's verdict, so a key saved in sandbox mode
 * does not stay "not checked yet". Nothing here touches a ledger: the live
 * one is not open, and the sandbox's must not learn live accounts.
 */
export interface KeyProbes {
  /** The target for a test of the key against `serviceUrl`; `since`: when the key was stored. */
  target(serviceUrl: string, since: number): KeyTestTarget;
  /**
   * The desk goes live on `serviceUrl`: its scheduler is told what the
   * service counted of the probe's requests in the last minute, so its first
   * reads wait for those slots instead of meeting a 429; and its accounts
   * learn the list the probe read, so no screen says "not read yet" for the
   * minute the next read must wait.
   */
  handOver(serviceUrl: string, to: { scheduler: Pick<Scheduler, 'noteRateLimit'>; accounts: { adopt(urls: LinkedTradeUrls): unknown } }): void;
  /** Drops the probe (the desk went live: its workspace asks from now on). */
  close(): Promise<void>;
}

interface Probe {
  readonly url: string;
  readonly client: MarketplaceClient;
  readonly scheduler: Scheduler;
  /** Why the last exchange did not reach the service; null when it did or none was made. */
  unreachableWhy(): string | null;
  accounts: AccountsAnswer | null;
  /** The list behind `accounts`, as the service gave it (trade URLs included). */
  accountsRead: LinkedTradeUrls | null;
  balance: BalanceAnswer | null;
  /** The rate headers of each endpoint's last answer, and when (monotonic ms). */
  readonly notes: Map<EndpointName, { info: RateLimitInfo; at: number }>;
}

const ASK = { lane: 'interactive', deadlineMs: INTERACTIVE_DEADLINE_MS, retries: 0 } as const;

export function createKeyProbes(deps: { keys: Pick<KeyService, 'read' | 'noteAccepted' | 'noteRejected' | 'on'>; clock: Clock }): KeyProbes {
  const { clock, keys } = deps;
  let probe: Probe | null = null;

  // Another key has its own count at the service, and a block for the old one does not hold.
  keys.on('replaced', () => {
    if (!probe) return;
    probe.scheduler.newKey();
    probe.accounts = null;
    probe.accountsRead = null;
    probe.balance = null;
    probe.notes.clear();
  });

  function open(url: string): Probe {
    let reach: Reach | null = null;
    const notes = new Map<EndpointName, { info: RateLimitInfo; at: number }>();
    const client = createMarketplaceClient({
      baseUrl: url,
      apiKey: () => keys.read(),
      clock,
      onRateLimit(info) {
        // Only requests the scheduler below sends come back here.
        scheduler.noteRateLimit(info);
        notes.set(info.endpoint, { info, at: clock.monotonic() });
        if (info.status >= 200 && info.status < 300) keys.noteAccepted();
      },
      onReach: (r) => {
        reach = r;
      },
    });
    const scheduler = createScheduler({ client, clock });
    // The key is rejected when the scheduler stops on a 401 for it, as in the live workspace.
    scheduler.on('state', (state) => {
      if (state.blocked === 'auth' && state.blockedError?.status !== undefined) keys.noteRejected();
    });
    return {
      url,
      client,
      scheduler,
      unreachableWhy: () => (reach !== null && !reach.reached ? reach.why : null),
      accounts: null,
      accountsRead: null,
      balance: null,
      notes,
    };
  }

  async function drop(): Promise<void> {
    const old = probe;
    probe = null;
    if (!old) return;
    old.scheduler.close();
    await old.client.close();
  }

  function current(url: string): Probe {
    if (probe && probe.url !== url) void drop();
    probe ??= open(url);
    return probe;
  }

  return {
    target(serviceUrl, since) {
      // Opened on the first ask, so an unusable URL is a refusal of that ask, not a throw here.
      return {
        mode: 'sandbox',
        serviceUrl,
        async accounts() {
          const p = current(serviceUrl);
          const reused = recentAnswer(p.accounts, since, clock.now());
          if (reused) return reused;
          const urls = await p.scheduler.request('get_linked_trade_urls', {}, ASK);
          p.accounts = { main: urls.main_account.id64, linked: urls.linked_accounts.map((a) => a.id64), at: clock.now() };
          p.accountsRead = urls;
          return p.accounts;
        },
        async balance() {
          const p = current(serviceUrl);
          const reused = recentAnswer(p.balance, since, clock.now());
          if (reused) return reused;
          const read = await p.scheduler.request('get_balance', {}, ASK);
          p.balance = { balance: read.balance, pending_balance: read.pending_balance, at: clock.now() };
          return p.balance;
        },
        unreachableWhy: () => (probe?.url === serviceUrl ? probe.unreachableWhy() : null),
      };
    },
    handOver(serviceUrl, to) {
      if (!probe || probe.url !== serviceUrl) return;
      const now = clock.monotonic();
      for (const { info, at } of probe.notes.values()) {
        if (now - at < RATE_WINDOW_MS) to.scheduler.noteRateLimit(info);
      }
      if (probe.accountsRead !== null) to.accounts.adopt(probe.accountsRead);
    },
    close: drop,
  };
}
