import type { KeyTestOutcome, KeyTestResult } from '../../../src-shared/key-test.ts';
import type { AccountsService } from '../accounts/accounts-service.ts';
import { ApiError, isApiError, type SerializedApiError } from '../api/errors.ts';
import type { Balance } from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { KeyService } from './key-service.ts';

export type { KeyTestResult } from '../../../src-shared/key-test.ts';

/**
 * "Test key": ask the service once with the stored key and say what it
 * found (the account, the balance, the linked accounts) or, in words, why
 * not. Every request goes through a scheduler (the rate limits hold); the key
 * is read by the client at send time and never kept, returned or logged.
 */

/** The accounts the key acts for, as the service listed them, and when (ms). */
export interface AccountsAnswer {
  readonly main: string | null;
  readonly linked: readonly string[];
  readonly at: number;
}

export interface BalanceAnswer {
  readonly balance: number;
  readonly pending_balance: number;
  readonly at: number;
}

/** Where a test asks: the live workspace in live mode, a probe of the live URL in sandbox mode. */
export interface KeyTestTarget {
  readonly mode: 'sandbox' | 'live';
  readonly serviceUrl: string;
  /** Rejects with ApiError within the interactive deadline. */
  accounts(): Promise<AccountsAnswer>;
  balance(): Promise<BalanceAnswer>;
  /** Why the service could not be reached, in words, after an exchange showed it. */
  unreachableWhy(): string | null;
}

/**
 * How long an answer to this key stands in for a new request: the accounts
 * list may be read once a minute, so a test right after the key was saved
 * (which reads it) would otherwise wait for the next minute.
 */
const ANSWER_REUSE_MS = 60_000;

export interface KeyTester {
  /** Tests the stored key now, or joins the test on its way. Never rejects: the result says what went wrong. */
  test(): Promise<KeyTestResult>;
  /** The last result, until the key changes. */
  last(): KeyTestResult | null;
  /** Drops the last result: it was about another service (the live URL changed). */
  forget(): void;
  on(event: 'changed', listener: (result: KeyTestResult | null) => void): Unsubscribe;
  dispose(): void;
}

export function createKeyTester(deps: {
  keys: Pick<KeyService, 'status' | 'on'>;
  clock: Clock;
  /** The target for the desk's mode now; `since` is when the key was stored. */
  target: (since: number) => KeyTestTarget;
}): KeyTester {
  const { clock } = deps;
  const events = createEmitter<{ changed: KeyTestResult | null }>();
  let last: KeyTestResult | null = null;
  let running: Promise<KeyTestResult> | null = null;
  let since = clock.now();

  const forget = () => {
    if (last === null) return;
    last = null;
    events.emit('changed', null);
  };
  const offReplaced = deps.keys.on('replaced', () => {
    since = clock.now();
    forget();
  });

  async function run(): Promise<KeyTestResult> {
    const status = await deps.keys.status().catch(() => null);
    const target = deps.target(since);
    const base = { serviceUrl: target.serviceUrl, mode: target.mode, last4: status?.last4 ?? null };
    if (status === null || !status.set) {
      const problem = status?.keychainProblem
        ? { kind: 'keychain_unavailable' as const, message: status.keychainProblem === 'locked' ? 'The system keychain is locked' : 'No system keychain is available' }
        : null;
      return empty({ ...base, outcome: 'no_key', problem }, clock.now());
    }
    const [accounts, balance] = await Promise.allSettled([target.accounts(), target.balance()]);
    const errors = [accounts, balance].filter((r) => r.status === 'rejected').map((r) => asError(r.reason));
    const answered = [accounts, balance].filter((r) => r.status === 'fulfilled').map((r) => r.value.at);
    const outcome = outcomeOf(errors, answered.length > 0);
    return {
      ...base,
      outcome,
      testedAt: clock.now(),
      answeredAt: answered.length > 0 ? Math.min(...answered) : null,
      mainAccount: accounts.status === 'fulfilled' ? accounts.value.main : null,
      linkedAccounts: accounts.status === 'fulfilled' ? [...accounts.value.linked] : [],
      balance: balance.status === 'fulfilled' ? { balance: balance.value.balance, pending_balance: balance.value.pending_balance } : null,
      problem: errors[0] ?? null,
      unreachableWhy: outcome === 'unreachable' ? target.unreachableWhy() : null,
    };
  }

  return {
    test() {
      running ??= run()
        .then((result) => {
          last = result;
          events.emit('changed', result);
          return result;
        })
        .finally(() => {
          running = null;
        });
      return running;
    },
    last: () => last,
    forget,
    on: (event, listener) => events.on(event, listener),
    dispose: () => offReplaced(),
  };
}

function empty(fields: Pick<KeyTestResult, 'serviceUrl' | 'mode' | 'last4' | 'outcome' | 'problem'>, now: number): KeyTestResult {
  return { ...fields, testedAt: now, answeredAt: null, mainAccount: null, linkedAccounts: [], balance: null, unreachableWhy: null };
}

function asError(reason: unknown): SerializedApiError {
  return (isApiError(reason) ? reason : new ApiError('network', reason instanceof Error ? reason.message : String(reason))).toJSON();
}

/**
 * The most telling of the failures: a refused key or account says more than
 * a lost answer, and one answer at all means the key was accepted. An `auth`
 * error with no status never left the desk (no key could be read).
 */
export function outcomeOf(errors: readonly SerializedApiError[], answered: boolean): KeyTestOutcome {
  if (errors.some((e) => e.kind === 'auth' && e.status !== undefined)) return 'rejected';
  if (errors.some((e) => e.kind === 'forbidden')) return 'forbidden';
  if (answered) return 'accepted';
  if (errors.some((e) => e.kind === 'auth')) return 'no_key';
  if (errors.length > 0 && errors.every((e) => e.kind === 'network')) return 'unreachable';
  return 'failed';
}

/**
 * An answer read with this key (since it was stored) in the last minute, or
 * null. The times are the wall clock's, which steps: an answer that seems to
 * come from the future was read before the clock was set back, and is not
 * taken as recent.
 */
export function recentAnswer<T extends { at: number }>(answer: T | null, since: number, now: number): T | null {
  if (answer === null || answer.at < since) return null;
  const age = now - answer.at;
  return age >= 0 && age < ANSWER_REUSE_MS ? answer : null;
}

/** A balance as the trade watcher read it, and when. */
type BalanceReading = Balance & { readonly readAt: number };

/** What the test needs of the trade watcher: its last balance reading, and a new one. */
export interface BalanceSource {
  balance(): BalanceReading | null;
  refreshBalance(): Promise<BalanceReading>;
}

/**
 * In live mode the test asks through the workspace's own reads, so what it
 * finds is also what the Accounts and Overview screens show, a read already
 * on its way (the one saving the key started) is joined, and an answer to
 * this key from the last minute is reused.
 */
export function workspaceKeyTarget(deps: {
  serviceUrl: string;
  accounts: Pick<AccountsService, 'snapshot' | 'refresh'>;
  trades: BalanceSource;
  clock: Clock;
  since: number;
  unreachableWhy: () => string | null;
}): KeyTestTarget {
  const { clock, since } = deps;
  const accountsOf = (snapshot: ReturnType<AccountsService['snapshot']>): AccountsAnswer => ({
    main: snapshot.main?.account_id ?? null,
    linked: snapshot.linked.map((a) => a.account_id),
    at: snapshot.read.readAt ?? clock.now(),
  });
  return {
    mode: 'live',
    serviceUrl: deps.serviceUrl,
    async accounts() {
      const known = accountsOf(deps.accounts.snapshot());
      const reusable = deps.accounts.snapshot().read.phase === 'done' ? recentAnswer(known, since, clock.now()) : null;
      return reusable ?? accountsOf(await deps.accounts.refresh());
    },
    async balance() {
      const reading = deps.trades.balance();
      const reusable = reading === null ? null : recentAnswer({ ...reading, at: reading.readAt }, since, clock.now());
      if (reusable) return reusable;
      const fresh = await deps.trades.refreshBalance();
      return { balance: fresh.balance, pending_balance: fresh.pending_balance, at: fresh.readAt };
    },
    unreachableWhy: deps.unreachableWhy,
  };
}
