import { coveredQuantity } from '../../../src-shared/balance-rule.ts';
import { formatCents } from '../../../src-shared/money.ts';
import type { Change } from '../drafts/change.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { BatchRow } from '../store/journal-repo.ts';

/**
 * What the service stored of the buy orders an apply created. The create
 * answers only `success`; the service checked the balance at creation and
 * cut each order to floor(balance / price) when the balance could not cover
 * it, reserving nothing, so the orders of one batch do not reduce each
 * other's balance. The desk reads the balance before a phase's creates are
 * sent and again after the last of them answered, and records what follows:
 *
 * - The readings agree: the balance is taken to have held still in between
 *   (a move and a move back to the very cent is not assumed), so each order
 *   holds min(quantity, floor(balance / price)), exactly.
 * - They differ (a fill paid or a sale credited meanwhile): the balance each
 *   create met is taken to lie between the two readings, so an order holds
 *   between what the lower and the higher reading cover. When both cover the
 *   same (e.g. the whole quantity), that is exact; otherwise the row keeps
 *   "may be cut" with the most as its quantity and the least beside it.
 * - An order the balance covers not one unit of is not on the service (the
 *   service stores nothing to fill): its row goes and its change fails,
 *   saying so, to be applied again when the balance allows.
 *
 * The first create of a phase waits for the reading from before (the read
 * on its way, or one request through the watcher's read, on the poll lane);
 * the reading after goes once the phase's last create answered and holds up
 * nothing but the handle's `done`, so the job's pace is unchanged.
 *
 * Orders of linked accounts (`multiaccount_proxy`) keep "may be cut":
 * get_balance reads the main account's balance, and the interface does not
 * say whose balance a linked account's order is checked against. A reading
 * that fails, or a phase cut short by a quit, leaves rows as they were
 * ("may be cut"): never a guess.
 */

/** What the balance readings tell of one order's stored quantity. */
export type StoredQuantity =
  | { readonly exact: true; readonly quantity: number }
  | { readonly exact: false; readonly atLeast: number; readonly atMost: number };

/** The quantity an order of `requested` units at `price` holds, given the balance readings before and after its create. */
export function storedQuantity(requested: number, price: number, before: number, after: number): StoredQuantity {
  const covered = (balance: number) => Math.min(requested, coveredQuantity(balance, price));
  const atLeast = covered(Math.min(before, after));
  const atMost = covered(Math.max(before, after));
  return atLeast === atMost ? { exact: true, quantity: atLeast } : { exact: false, atLeast, atMost };
}

/** The balance reads the check shares with the trade watcher (one read in flight at a time). */
export interface BalanceReads {
  readBalance(options?: { fresh?: boolean }): Promise<{ readonly balance: number }>;
}

export interface QuantityCheckDeps {
  readonly store: Store;
  readonly repos: Repos;
  readonly reads: BalanceReads;
  /** Told which draft rows changed, to refresh in-memory views. */
  readonly touched: (draftId: string, targets: readonly string[]) => void;
}

export interface QuantityCheck {
  /**
   * Before each attempt of a batch: for a main-account create_buy_order,
   * waits for the phase's reading from before its creates (taken by the
   * first of them). Never throws.
   */
  beforeSend(batch: BatchRow): Promise<void>;
  /** After a batch's outcome is journaled: once its phase has no main-account create left to send, reads again and records. */
  afterOutcome(batch: BatchRow): void;
  /**
   * The run's job ended (a cancel leaves creates unsent): every phase not
   * yet recorded is, now. Settles when all are, with how many orders turned
   * out not created (counted done by the job, failed now).
   */
  settle(runId: number): Promise<number>;
}

interface Phase {
  readonly runId: number;
  readonly phase: number;
  readonly before: Promise<number | null>;
  /** Batches sent with the reading from before. */
  readonly batches: Set<string>;
  /** Settles once recorded, with how many orders turned out not created. */
  recorded: Promise<number> | null;
}

const isMainCreate = (b: Pick<BatchRow, 'endpoint' | 'proxy'>) => b.endpoint === 'create_buy_order' && b.proxy === null;

export function createQuantityCheck(deps: QuantityCheckDeps): QuantityCheck {
  const { store, repos, reads } = deps;
  const phases = new Map<string, Phase>();
  const keyOf = (runId: number, phase: number) => `${runId}:${phase}`;
  const reading = (fresh: boolean): Promise<number | null> =>
    reads.readBalance(fresh ? { fresh } : {}).then((r) => r.balance, () => null);

  /** Creates of this phase not yet answered (or split into halves still to send). */
  const openCreates = (p: Phase) =>
    repos.journal.batches({ runId: p.runId, states: ['planned', 'sent'] }).some((b) => b.phase === p.phase && isMainCreate(b));

  /** Reads after the phase and records; never rejects (a failure leaves the rows "may be cut"). */
  function record(p: Phase): Promise<number> {
    p.recorded ??= p.before
      // Without a reading from before, one after tells nothing: no request for it.
      .then(async (before) => [before, before === null ? null : await reading(true)] as const)
      .then(([before, after]) => {
        if (phases.get(keyOf(p.runId, p.phase)) === p) phases.delete(keyOf(p.runId, p.phase));
        // A reading failed, or the workspace closed meanwhile: the rows stay as recorded.
        if (before === null || after === null || !store.db.isOpen) return 0;
        return store.transaction(() => [...p.batches].reduce((n, batchId) => n + settleBatch(batchId, before, after), 0));
      })
      .catch(() => 0);
    return p.recorded;
  }

  /** Records the batch's created orders; returns how many were not created. */
  function settleBatch(batchId: string, before: number, after: number): number {
    const run = repos.journal.run(repos.journal.batch(batchId)?.run_id ?? -1);
    if (!run) return 0;
    let notCreated = 0;
    const created = repos.drafts.entriesOfBatch(batchId).filter((e) => e.status === 'done' && e.change.kind === 'buyOrder.create');
    for (const e of created) {
      const change = e.change as Extract<Change, { kind: 'buyOrder.create' }>;
      const row = repos.buyOrders.get(change.sku);
      // Edited, deleted or settled since: what the row says now is newer than this create.
      if (!row || !row.quantity_may_be_cut || row.price !== change.price || row.quantity !== change.quantity) continue;
      const requested = { price: change.price, quantity: change.quantity };
      const stored = storedQuantity(change.quantity, change.price, before, after);
      if (!stored.exact) repos.buyOrders.settleQuantity(change.sku, requested, { quantity: stored.atMost, mayBeCut: true, atLeast: stored.atLeast });
      else if (stored.quantity > 0) repos.buyOrders.settleQuantity(change.sku, requested, { quantity: stored.quantity, mayBeCut: false, atLeast: null });
      else {
        // Nothing stands on the service behind it.
        repos.buyOrders.remove([change.sku]);
        repos.drafts.setStatus(run.draft_id, [e.target], 'failed', {
          kind: 'rejected', endpoint: 'create_buy_order',
          message: `not created: the balance (${formatCents(Math.max(before, after))}) does not cover one at ${formatCents(change.price)}`,
        });
        notCreated += 1;
      }
    }
    if (created.length > 0) deps.touched(run.draft_id, created.map((e) => e.target));
    return notCreated;
  }

  return {
    async beforeSend(batch) {
      if (!isMainCreate(batch)) return;
      const key = keyOf(batch.run_id, batch.phase);
      let p = phases.get(key);
      if (!p || p.recorded) {
        p = { runId: batch.run_id, phase: batch.phase, before: reading(false), batches: new Set(), recorded: null };
        phases.set(key, p);
      }
      p.batches.add(batch.batch_id);
      await p.before;
    },
    afterOutcome(batch) {
      if (!isMainCreate(batch)) return;
      const p = phases.get(keyOf(batch.run_id, batch.phase));
      if (p && !p.recorded && !openCreates(p)) void record(p);
    },
    async settle(runId) {
      const counts = await Promise.all([...phases.values()].filter((p) => p.runId === runId).map(record));
      return counts.reduce((a, b) => a + b, 0);
    },
  };
}
