import { isApiError, type ApiError } from '../api/errors.ts';
import { boundedRetryAfterMs } from '../api/rate-headers.ts';
import { wallTimeOf, type Clock } from '../clock.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { InventoryProblemRecord, InventoryRepo } from '../store/inventory-repo.ts';
import { rowsOfPage } from './econ-items.ts';
import type { SteamInventoryClient } from './steam-client.ts';
import { problemOf } from './problem-words.ts';

/**
 * One read of one account's inventory, page after page, written to the store
 * as it comes (under a new copy, swapped in at the end). Steam's 429 is
 * waited out, never fought: the wait it asks for (Retry-After) or, without
 * one, a wait that doubles each time; a network failure or a 5xx is tried
 * again a few times the same way. A private inventory, or an answer that
 * cannot be read, ends the read with the reason; the copy read before stays.
 */

/** Paces every request to Steam (one IP, one budget): a gap between requests, and Steam's own wait after a 429. */
export interface SteamGate {
  /** Resolves when the next request may go. */
  wait(signal: AbortSignal): Promise<void>;
  /** A request went now. */
  sent(): void;
  /** Steam asked for a wait of `ms` (or the desk chose one; at most MAX_RETRY_AFTER_MS): no request before it ends, returned as a wall-clock time. */
  hold(ms: number): number;
}

export function createSteamGate(clock: Clock, gapMs: number): SteamGate {
  // Monotonic instants: the gap and the holds are durations, whatever the wall clock does.
  let lastSentAt = -Infinity;
  let heldUntil = -Infinity;
  return {
    async wait(signal) {
      for (;;) {
        const at = Math.max(lastSentAt + gapMs, heldUntil);
        const now = clock.monotonic();
        if (at <= now) return;
        await clock.sleep(at - now, signal);
      }
    },
    sent() {
      lastSentAt = clock.monotonic();
    },
    hold(ms) {
      heldUntil = Math.max(heldUntil, clock.monotonic() + boundedRetryAfterMs(ms));
      return wallTimeOf(clock, heldUntil);
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

export interface ReadHooks {
  progress(read: number, total: number | null): void;
  /** The read waits until `until` (ms), for `problem`'s reason. */
  waiting(until: number, problem: InventoryProblemRecord): void;
}

export type ReadEnd = { readonly ok: true; readonly items: number } | { readonly ok: false; readonly problem: InventoryProblemRecord };

export async function readAccount(deps: AccountReadDeps, account: string, signal: AbortSignal, hooks: ReadHooks): Promise<ReadEnd> {
  const { client, repo, clock, gate } = deps;
  const generation = repo.beginRead(account);
  await pruneAll(deps, account, generation);
  const seen = new Map<string, ReturnType<typeof rowsOfPage>[number]>();
  let start: string | null = null;
  let position = 0;
  let limited = 0;
  let transient = 0;
  for (;;) {
    await gate.wait(signal);
    gate.sent();
    let page;
    try {
      page = await client.readPage(account, start, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const apiError = isApiError(error) ? error : null;
      if (apiError?.kind === 'rate_limited') {
        limited += 1;
        const until = gate.hold(apiError.retryAfterMs ?? deps.backoffMs(limited));
        hooks.waiting(until, problemOf(account, apiError, clock.now()));
        continue;
      }
      if (apiError !== null && (apiError.kind === 'network' || apiError.kind === 'server') && transient < deps.maxTransientFailures) {
        transient += 1;
        const until = gate.hold(deps.backoffMs(transient));
        hooks.waiting(until, problemOf(account, apiError, clock.now()));
        continue;
      }
      await pruneAll(deps, account);
      return { ok: false, problem: problemOf(account, apiError ?? (error as ApiError), clock.now()) };
    }
    limited = 0;
    transient = 0;
    // A page is read and written a slice at a time, so no step holds the thread long.
    const count = page.assets?.length ?? 0;
    for (let from = 0; from < count; from += deps.sliceSize) {
      const rows = rowsOfPage(page, deps.names, seen, from, Math.min(count, from + deps.sliceSize));
      repo.writePage(account, generation, position, rows);
      position += rows.length;
      await deps.turn();
    }
    hooks.progress(position, page.total_inventory_count);
    if (page.more_items === 1 || page.more_items === true) {
      start = page.last_assetid ?? null;
      continue;
    }
    repo.finishRead(account, generation, clock.now(), page.total_inventory_count);
    await pruneAll(deps, account);
    return { ok: true, items: position };
  }
}

/** Deletes the account's other copies (all but the current and `keep`), a chunk per turn. */
async function pruneAll(deps: AccountReadDeps, account: string, keep?: number): Promise<void> {
  while (deps.repo.prune(account, deps.pruneChunk, keep) > 0) await deps.turn();
}
