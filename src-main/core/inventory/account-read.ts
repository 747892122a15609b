import { isApiError, type ApiError } from '../api/errors.ts';
import type { Clock } from '../clock.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { InventoryProblemRecord, InventoryRepo } from '../store/inventory-repo.ts';
import { rowsOfPage } from './econ-items.ts';
import { problemOf, stoppedProblem } from './problem-words.ts';
import { freshAssets, plausibleTotal, retryWaitMs, saysMore, stopAfter, type ReadSoFar } from './read-bounds.ts';
import type { SteamInventoryClient } from './steam-client.ts';

/**
 * One read of one account's inventory, page after page, written to the store
 * as it comes (under a new copy, swapped in at the end). Steam's 429 is
 * waited out, never fought: the wait it asks for (Retry-After, up to a cap)
 * or, without one, a wait that doubles each time; a network failure or a 5xx
 * is tried again a few times the same way. A wait ends the call and the read
 * is taken up again from the page it was on, so the other accounts are read
 * meanwhile. A private inventory, or an answer that cannot be read, ends the
 * read with the reason; the copy read before stays. An answer that would not
 * end is cut short at the bounds of read-bounds.ts, and what it read is kept.
 */

/** Paces every request to Steam (one IP, one budget): a gap between requests. */
export interface SteamGate {
  /** Resolves when the next request may go. */
  wait(signal: AbortSignal): Promise<void>;
  /** A request went now. */
  sent(): void;
}

export function createSteamGate(clock: Clock, gapMs: number): SteamGate {
  // Monotonic instants: the gap and the holds are durations, whatever the wall clock does.
  let lastSentAt = -Infinity;
  return {
    async wait(signal) {
      for (;;) {
        const at = lastSentAt + gapMs;
        const now = clock.monotonic();
        if (at <= now) return;
        await clock.sleep(at - now, signal);
      }
    },
    sent() {
      lastSentAt = clock.monotonic();
    },
  };
}

export interface AccountReadDeps {
  readonly client: SteamInventoryClient;
  readonly repo: InventoryRepo;
  readonly names: Pick<ItemNames, 'describe' | 'skuOfEcon'>;
  readonly clock: Clock;
  readonly gate: SteamGate;
  /** How long to wait after the n-th failure in a row (1-based) when Steam names no wait. */
  readonly backoffMs: (failures: number) => number;
  /** Failures of the network or of Steam's servers (not 429s) before the read gives up. */
  readonly maxTransientFailures: number;
  /** Deletes of old copies are done this many rows at a time, between turns. */
  readonly pruneChunk: number;
  /** Items parsed and written a step. */
  readonly sliceSize: number;
  /** Lets other work run between steps. */
  readonly turn: () => Promise<void>;
}

/** A read of one account under way: where it is, kept while it waits. */
export interface AccountRead extends ReadSoFar {
  readonly account: string;
  readonly generation: number;
  /** The next page's start_assetid; null for the first page. */
  start: string | null;
  position: number;
  pages: number;
  /** 429s in a row, and failures of the network or of Steam's servers in a row. */
  limited: number;
  transient: number;
  readonly assets: Set<string>;
  readonly starts: Set<string>;
  /** Descriptions read in this pass (rowsOfPage's `seen`). */
  readonly described: Parameters<typeof rowsOfPage>[2];
}

export interface ReadHooks {
  /** `total` is Steam's count when it can be true, else null. */
  progress(read: number, total: number | null): void;
}

export type ReadEnd =
  /** The read is the account's copy; `stopped` says why it ended before Steam said it had. */
  | { readonly kind: 'done'; readonly items: number; readonly stopped: InventoryProblemRecord | null }
  | { readonly kind: 'failed'; readonly problem: InventoryProblemRecord }
  /** Steam asked for a wait (or a failure is tried again later): the read goes on `waitMs` from now, from the page it was on. */
  | { readonly kind: 'wait'; readonly waitMs: number; readonly problem: InventoryProblemRecord };

/** Starts a read of `account`: a new copy to write to, the old copies but the current one deleted. */
export async function beginAccountRead(deps: AccountReadDeps, account: string): Promise<AccountRead> {
  const generation = deps.repo.beginRead(account);
  await pruneAll(deps, account, generation);
  return {
    account, generation, start: null, position: 0, pages: 0, limited: 0, transient: 0, assets: new Set(), starts: new Set(), described: new Map(),
  };
}

/** Reads on from where `read` is until it ends, fails, or must wait. */
export async function readAccount(deps: AccountReadDeps, read: AccountRead, signal: AbortSignal, hooks: ReadHooks): Promise<ReadEnd> {
  const { client, repo, clock, gate } = deps;
  const { account } = read;
  for (;;) {
    await gate.wait(signal);
    gate.sent();
    let page;
    try {
      page = await client.readPage(account, read.start, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const apiError = isApiError(error) ? error : null;
      const now = clock.now();
      if (apiError?.kind === 'rate_limited') {
        read.limited += 1;
        const waitMs = retryWaitMs(apiError.retryAfterMs, () => deps.backoffMs(read.limited));
        return { kind: 'wait', waitMs, problem: problemOf(account, apiError, now) };
      }
      if (apiError !== null && (apiError.kind === 'network' || apiError.kind === 'server') && read.transient < deps.maxTransientFailures) {
        read.transient += 1;
        return { kind: 'wait', waitMs: deps.backoffMs(read.transient), problem: problemOf(account, apiError, now) };
      }
      await pruneAll(deps, account);
      return { kind: 'failed', problem: problemOf(account, apiError ?? (error as ApiError), now) };
    }
    read.limited = 0;
    read.transient = 0;
    read.pages += 1;
    if (read.start !== null) read.starts.add(read.start);
    const { fresh, cut } = freshAssets(read, page);
    const kept = { ...page, assets: fresh };
    // A page is read and written a slice at a time, so no step holds the thread long.
    for (let from = 0; from < fresh.length; from += deps.sliceSize) {
      const rows = rowsOfPage(kept, deps.names, read.described, from, Math.min(fresh.length, from + deps.sliceSize));
      repo.writePage(account, read.generation, read.position, rows);
      for (const row of rows) read.assets.add(row.asset_id);
      read.position += rows.length;
      await deps.turn();
    }
    hooks.progress(read.position, plausibleTotal(page.total_inventory_count, read.position));
    const stop = stopAfter(read, page, fresh.length, cut);
    if (stop === null && saysMore(page)) {
      read.start = page.last_assetid ?? null;
      continue;
    }
    const stopped = stop === null ? null : stoppedProblem(stop, read.position, clock.now());
    if (stopped !== null && read.position === 0) {
      await pruneAll(deps, account);
      return { kind: 'failed', problem: stopped };
    }
    repo.finishRead(account, read.generation, clock.now(), read.position);
    await pruneAll(deps, account);
    return { kind: 'done', items: read.position, stopped };
  }
}

/** Deletes the account's other copies (all but the current and `keep`), a chunk per turn. */
async function pruneAll(deps: AccountReadDeps, account: string, keep?: number): Promise<void> {
  while (deps.repo.prune(account, deps.pruneChunk, keep) > 0) await deps.turn();
}
