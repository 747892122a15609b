import type { InventoryAccountState } from '../../../src-shared/inventory.ts';
import { wallTimeOf, type Clock } from '../clock.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { Store } from '../store/db.ts';
import { createInventoryRepo, type InventoryProblemRecord, type InventoryRepo } from '../store/inventory-repo.ts';
import { beginAccountRead, createSteamGate, readAccount, type AccountRead, type AccountReadDeps, type ReadEnd } from './account-read.ts';
import type { SteamInventoryClient } from './steam-client.ts';

/**
 * The trader's inventories, read from Steam and kept in the store. Reads run
 * one request at a time in the background (Steam limits by address, and
 * hard): nothing in the desk waits for them, and screens are told when a
 * read moves on or a new copy is in. A read is asked for by the trader
 * (Refresh) or by the picker when what is kept is old; an account is read
 * again at most every few minutes, and after a 429 not before Steam allows
 * (up to a cap): while one account waits, the others are read.
 */
export interface InventoryTiming {
  /** Least time between two complete reads of one account. */
  readonly minIntervalMs: number;
  /** Least time before a failed read is tried again when asked. */
  readonly retryIntervalMs: number;
  /** Copies older than this are read again when the picker opens. */
  readonly staleMs: number;
  /** Least time between two requests to Steam. */
  readonly gapMs: number;
  /** The first wait after a 429 without Retry-After (or a failure); it doubles, up to `maxBackoffMs`. */
  readonly firstBackoffMs: number;
  readonly maxBackoffMs: number;
}

export const DEFAULT_INVENTORY_TIMING: InventoryTiming = {
  minIntervalMs: 3 * 60_000,
  retryIntervalMs: 30_000,
  staleMs: 15 * 60_000,
  gapMs: 1_000,
  firstBackoffMs: 30_000,
  maxBackoffMs: 15 * 60_000,
};

export interface InventoryServiceDeps {
  store: Store;
  clock: Clock;
  client: SteamInventoryClient;
  names: Pick<ItemNames, 'describe' | 'skuOfEcon'>;
  /** Every account the key acts for, main first. */
  accounts: () => string[];
  timing?: Partial<InventoryTiming>;
  random?: () => number;
}

export interface InventoryEvents extends Record<string, unknown> {
  /** A read moved on (started, waits, progressed, ended). */
  state: readonly InventoryAccountState[];
  /** A new copy of an account's items is in: pages and counts change. */
  items: { account: string };
}

export interface InventoryService {
  readonly repo: InventoryRepo;
  /** Every account's read, main first. */
  state(): InventoryAccountState[];
  /** Reads these accounts (all when omitted) as soon as allowed; returns at once. */
  refresh(accounts?: readonly string[]): InventoryAccountState[];
  /** Reads the accounts never read, or read longer ago than `staleMs`; returns at once. */
  ensureFresh(): InventoryAccountState[];
  /** Moves on each time a new copy of an account's items is in (what is kept changed). */
  itemsVersion(): number;
  on<E extends keyof InventoryEvents>(event: E, listener: (payload: InventoryEvents[E]) => void): Unsubscribe;
  close(): Promise<void>;
}

/**
 * An account's read as it goes. Its times are monotonic instants (the waits
 * are durations, whatever the wall clock does), shown as wall times.
 */
interface Live {
  phase: InventoryAccountState['phase'];
  progress: InventoryAccountState['progress'];
  nextAt: number | null;
  /** A read is wanted from this instant on; null when none is. */
  wantedAt: number | null;
  /** A wait's reason while waiting (a 429, a failure tried again). */
  waitProblem: InventoryProblemRecord | null;
  lastTryAt: number | null;
  /** A read of this account is under way (reading, or waiting inside it). */
  busy: boolean;
  /** The read under way, kept while it waits so it goes on from the page it was on. */
  read: AccountRead | null;
}

export function createInventoryService(deps: InventoryServiceDeps): InventoryService {
  const timing = { ...DEFAULT_INVENTORY_TIMING, ...deps.timing };
  const { clock } = deps;
  const random = deps.random ?? Math.random;
  const repo = createInventoryRepo(deps.store);
  const emitter = createEmitter<InventoryEvents>();
  const live = new Map<string, Live>();
  const stopping = new AbortController();
  const gate = createSteamGate(clock, timing.gapMs);
  let pumping: Promise<void> | null = null;
  let itemsVersion = 0;
  let wake: AbortController | null = null;

  const backoffMs = (failures: number) => {
    const base = Math.min(timing.maxBackoffMs, timing.firstBackoffMs * 2 ** Math.max(0, failures - 1));
    return Math.round(base * (0.75 + random() * 0.5));
  };
  const readDeps: AccountReadDeps = {
    client: deps.client, repo, names: deps.names, clock, gate, backoffMs,
    maxTransientFailures: 3, pruneChunk: 500, sliceSize: 250, turn: () => new Promise((resolve) => setImmediate(resolve)),
  };

  const liveOf = (account: string): Live => {
    let l = live.get(account);
    if (!l) live.set(account, (l = { phase: 'idle', progress: null, nextAt: null, wantedAt: null, waitProblem: null, lastTryAt: null, busy: false, read: null }));
    return l;
  };

  function state(): InventoryAccountState[] {
    const reads = new Map(repo.reads().map((r) => [r.account, r]));
    const counts = repo.counts();
    return deps.accounts().map((account) => {
      const read = reads.get(account);
      const l = liveOf(account);
      const stored = read?.problem_kind && read.problem ? { kind: read.problem_kind, message: read.problem, at: read.problem_at ?? 0 } : null;
      const failed = stored !== null && stored.kind !== 'stopped';
      const phase = l.phase !== 'idle' ? l.phase : failed ? 'failed' : read?.read_at != null ? 'done' : 'idle';
      return {
        account,
        phase,
        readAt: read?.read_at ?? null,
        items: counts.get(account) ?? 0,
        progress: l.phase === 'reading' || l.phase === 'waiting' ? l.progress : null,
        nextAt: l.phase === 'waiting' && l.nextAt !== null ? wallTimeOf(clock, l.nextAt) : null,
        problem: l.phase === 'waiting' ? l.waitProblem : stored,
      };
    });
  }

  const announce = () => emitter.emit('state', state());

  /**
   * The instant a read of `account` may start, given its last read (a wall
   * time kept in the store, so the least interval holds across restarts) or
   * its last try in this run.
   */
  function earliest(account: string): number {
    const read = repo.read(account);
    const l = liveOf(account);
    const now = clock.monotonic();
    // A read stamped in the future is a wall clock set back since: it waits no longer than the interval.
    const afterRead = read?.read_at == null ? -Infinity : now + Math.min(timing.minIntervalMs, read.read_at + timing.minIntervalMs - clock.now());
    const afterTry = l.lastTryAt === null || read?.problem_kind == null ? -Infinity : l.lastTryAt + timing.retryIntervalMs;
    return Math.max(afterRead, afterTry);
  }

  function want(accounts: readonly string[]): void {
    const own = new Set(deps.accounts());
    for (const account of accounts) {
      if (!own.has(account)) continue;
      const l = liveOf(account);
      if (l.busy || l.wantedAt !== null) continue;
      const now = clock.monotonic();
      l.wantedAt = Math.max(now, earliest(account));
      // Waiting: for the least time between reads, or (due now) for its turn after the accounts before it.
      Object.assign(l, { phase: 'waiting', nextAt: l.wantedAt > now ? l.wantedAt : null, waitProblem: null });
    }
    announce();
    wake?.abort();
    pumping ??= pump().finally(() => (pumping = null));
  }

  /** Reads the wanted accounts one after another, main first, each when it may go. */
  async function pump(): Promise<void> {
    while (!stopping.signal.aborted) {
      const next = deps.accounts().map((a) => [a, liveOf(a)] as const).filter(([, l]) => l.wantedAt !== null)
        .sort(([, a], [, b]) => (a.wantedAt ?? 0) - (b.wantedAt ?? 0))[0];
      if (next === undefined) return;
      const [account, l] = next;
      const delay = (l.wantedAt ?? 0) - clock.monotonic();
      if (delay > 0) {
        wake = new AbortController();
        await clock.sleep(delay, AbortSignal.any([wake.signal, stopping.signal])).catch(() => undefined);
        continue;
      }
      l.wantedAt = null;
      await readOne(account, l);
    }
  }

  async function readOne(account: string, l: Live): Promise<void> {
    const resumed = l.read !== null;
    Object.assign(l, { phase: 'reading', progress: { read: l.read?.position ?? 0, total: null }, nextAt: null, waitProblem: null, busy: true });
    if (!resumed) l.lastTryAt = clock.monotonic();
    announce();
    let end: ReadEnd;
    try {
      l.read ??= await beginAccountRead(readDeps, account);
      end = await readAccount(readDeps, l.read, stopping.signal, {
        progress(read, total) {
          Object.assign(l, { phase: 'reading', progress: { read, total }, nextAt: null, waitProblem: null });
          announce();
        },
      });
    } catch (error) {
      if (stopping.signal.aborted) return;
      end = { kind: 'failed', problem: { kind: 'unreadable', at: clock.now(), message: `The desk could not read this inventory (${error instanceof Error ? error.message : String(error)}). Choose Refresh to try again.` } };
    }
    if (end.kind === 'wait') {
      // The read waits its turn again, at the time Steam allows; the pump reads the other accounts meanwhile.
      const until = clock.monotonic() + end.waitMs;
      Object.assign(l, { phase: 'waiting', nextAt: until, wantedAt: until, waitProblem: end.problem });
      announce();
      return;
    }
    l.read = null;
    repo.noteProblem(account, end.kind === 'failed' ? end.problem : end.stopped);
    Object.assign(l, { phase: 'idle', progress: null, nextAt: null, waitProblem: null, busy: false });
    if (end.kind === 'done') {
      itemsVersion += 1;
      emitter.emit('items', { account });
    }
    announce();
  }

  return {
    repo,
    state,
    refresh(accounts) {
      want(accounts ?? deps.accounts());
      return state();
    },
    ensureFresh() {
      const now = clock.now();
      const reads = new Map(repo.reads().map((r) => [r.account, r]));
      const stale = deps.accounts().filter((a) => {
        const read = reads.get(a);
        // A failed read is not tried again by itself: the trader asks (after making it public, say).
        if (read?.problem_kind != null && read.problem_at !== null && now - read.problem_at < timing.staleMs) return false;
        return read?.read_at == null || now - read.read_at >= timing.staleMs;
      });
      if (stale.length > 0) want(stale);
      return state();
    },
    itemsVersion: () => itemsVersion,
    on: (event, listener) => emitter.on(event, listener),
    async close() {
      stopping.abort(new Error('inventory reads stopped'));
      wake?.abort();
      await pumping?.catch(() => undefined);
      await deps.client.close();
    },
  };
}
