import { ENDPOINTS } from '../api/endpoints.ts';
import type { SerializedApiError } from '../api/errors.ts';
import { createListingResponse, type CreatedListing } from '../api/schemas.ts';
import { BUY_ORDERS_DELETE_ALL, LISTINGS_DELETE_ALL, type DraftEntry } from '../drafts/change.ts';
import type { BatchOutcome, BatchTask, JobState } from '../scheduler/index.ts';
import { mayHaveApplied } from '../scheduler/send.ts';
import type { Store } from '../store/db.ts';
import type { BatchRow, RunRow } from '../store/journal-repo.ts';
import { settleEndedBeforeSend } from './ended-listings.ts';
import { recordAppliedMany, type DoneChange } from './applied-rows.ts';
import { advance, taskOf, type PhaseDeps } from './phases.ts';
import { mayHaveBeenApplied, settleRefusal, type RefusalResult, type Settled } from './refusals.ts';

/**
 * The apply journal's steps, each one committed transaction: a run starts
 * (its changes queued), a batch is marked sent just before it goes, and its
 * outcome is recorded after, together with what it does to the ledger, the
 * draft and the activity log. Nothing is sent that was not journaled first,
 * so after a crash a batch is either known unsent or has an unknown outcome.
 */
export interface Journal {
  /**
   * Journals a run of the draft's changes made so far (pending and failed) and queues those that must go at once (the
   * failed ones and the delete-alls) with the first part of the rest; `queueMore` queues the others.
   */
  startRun(draftId: string): RunRow;
  /** Queues the next part of a starting run's changes; true once every one is queued (at once for a run that has). */
  queueMore(runId: number): boolean;
  /**
   * Journals the batch as sent (idempotent: the scheduler calls it before
   * every attempt), after checking its listings against the ledger: those
   * sold or gone since it was planned are settled now and leave it.
   */
  prepareSend(batchId: string): PreparedSend;
  /** An attempt changed nothing (429, not sent, 5xx) and will be made again: unsent until then. */
  markRetry(batchId: string, error: SerializedApiError): void;
  /**
   * Records an outcome; returns the follow-up tasks (the rest or halves of a
   * refused batch) and the items it settled without a request of their own (a
   * refused item the service named), which the job's own counts cannot know.
   * The batches that follow are planned by `planNext`, a step of its own.
   */
  recordOutcome(batchId: string, outcome: BatchOutcome): OutcomeResult;
  /**
   * Plans the run's next batches after an outcome (the next phase once the
   * one before has nothing open): `advance` in a transaction of its own, as a
   * start or a restart plans, since it reads from the store alone what is open
   * and what waits.
   */
  planNext(runId: number): BatchTask[];
  /** Ends a run: batches never sent are unplanned and their changes are pending again. */
  finishRun(runId: number, jobState: JobState): void;
}

export interface PreparedSend {
  /** The batch as it goes (fewer items when some were settled now); null when nothing of it is left to send. */
  readonly task: BatchTask | null;
  /** Items settled now, without a request. */
  readonly settled: Settled;
  /** For a batch with nothing left to send: the batches planned in its place. */
  readonly followUps: BatchTask[];
}

export interface OutcomeResult {
  readonly followUps: BatchTask[];
  readonly settled: Settled;
  /** The batch's items were settled one by one or re-batched: the job must not count the batch itself. */
  readonly replaced: boolean;
  /** Listings a refusal said are gone (0: none): the trades are to be read before more listing batches go. */
  readonly readTrades: number;
}

/** A starting run's changes are queued this many at a time, a statement each (a few ms, beside the first outcomes in a turn). */
export const QUEUE_PART = 500;

export function createJournal(store: Store, deps: PhaseDeps): Journal {
  const { repos } = deps;
  const mainAccount = () => repos.accounts.main()?.account_id ?? null;

  function startRun(draftId: string): RunRow {
    return store.transaction(() => {
      // The run takes the changes made so far: those numbered below the draft's next sequence number.
      const queueBelow = repos.drafts.takeSeqs(draftId, 0);
      const run = repos.journal.createRun(draftId, queueBelow);
      // The run is planned while the rest of its changes is queued (run-planning.ts), so some go at once. Those that
      // failed in an earlier apply (they are few): the parts after take only pending ones, and a change that fails in
      // this run while they are queued is not taken again. Its delete-alls, whatever part they would fall in: a
      // delete-all goes before anything else (phases.ts).
      repos.drafts.moveStatus(draftId, ['failed'], 'queued', { seqBelow: queueBelow });
      const deleteAlls = repos.drafts.entriesFor(draftId, [LISTINGS_DELETE_ALL, BUY_ORDERS_DELETE_ALL])
        .filter((e) => e.status === 'pending' && e.seq < queueBelow);
      if (deleteAlls.length > 0) repos.drafts.setStatus(draftId, deleteAlls.map((e) => e.target), 'queued', null, null);
      queuePart(run);
      return requireRun(run.run_id);
    });
  }

  /**
   * Queues the next part of a starting run's changes (without a batch: they are planned a few batches ahead as it
   * goes, see phases.ts); true once every one is queued.
   */
  function queuePart(run: RunRow): boolean {
    if (run.queue_below === null) return true;
    const moved = repos.drafts.moveStatus(run.draft_id, ['pending'], 'queued', { limit: QUEUE_PART, seqBelow: run.queue_below });
    const all = moved < QUEUE_PART;
    if (all) repos.journal.queuedAll(run.run_id);
    deps.touched(run.draft_id, []);
    return all;
  }

  function queueMore(runId: number): boolean {
    return store.transaction(() => queuePart(requireRun(runId)));
  }

  function prepareSend(batchId: string): PreparedSend {
    return store.transaction(() => {
      const settled: Settled = { done: 0, failed: 0, unknown: 0 };
      const b = requireBatch(batchId);
      if (b.state !== 'planned') return { task: taskOf(b), settled, followUps: [] };
      const run = requireRun(b.run_id);
      const gone = settleEndedBeforeSend(repos, run.draft_id, b, settled);
      if (gone.size === b.targets.length) {
        // Never sent, nothing left in it: it goes from the journal, and the run plans on without it.
        repos.journal.deleteBatch(batchId);
        deps.touched(run.draft_id, b.targets);
        return { task: null, settled, followUps: advance(run, deps) };
      }
      const row = gone.size === 0 ? b : without(b, gone);
      repos.journal.setBatchState(batchId, 'sent');
      repos.drafts.setStatus(run.draft_id, row.targets, 'sent');
      repos.activity.recordSent({ batchId, endpoint: row.endpoint, account: row.proxy ?? mainAccount(), targets: row.targets, itemCount: row.item_count });
      deps.touched(run.draft_id, b.targets);
      return { task: taskOf(row), settled, followUps: [] };
    });
  }

  /** The batch without the items of these targets, as journaled from now on. */
  function without(b: BatchRow, gone: ReadonlySet<string>): BatchRow {
    const { items, ...rest } = b.input as { items: unknown[] };
    const keep = b.targets.flatMap((target, i) => (gone.has(target) ? [] : [i]));
    const input = { ...rest, items: keep.map((i) => items[i]) } as BatchTask['input'];
    return repos.journal.reviseBatch(b.batch_id, input, keep.map((i) => b.targets[i] as string));
  }

  function markRetry(batchId: string, error: SerializedApiError): void {
    store.transaction(() => {
      const b = requireBatch(batchId);
      if (b.state !== 'sent') return;
      const run = requireRun(b.run_id);
      // An idempotent write retried after an answer that does not say what happened: it may have been
      // applied, which a later "not found" refusal of a delete must know (see refusals.ts).
      const maybe = mayHaveApplied(error) ? { status: 'unknown_outcome' as const, error } : mayHaveBeenApplied(b) ? b.outcome : null;
      repos.journal.setBatchState(batchId, 'planned', maybe);
      repos.drafts.setStatus(run.draft_id, b.targets, 'queued');
      // That request was sent and refused without effect: its log entry says so; the next attempt gets its own.
      repos.activity.recordOutcome(batchId, 'failed', error);
      deps.touched(run.draft_id, b.targets);
    });
  }

  function recordOutcome(batchId: string, outcome: BatchOutcome): OutcomeResult {
    return store.transaction(() => {
      const settled: Settled = { done: 0, failed: 0, unknown: 0 };
      const b = requireBatch(batchId);
      const run = requireRun(b.run_id);
      let result: RefusalResult = { followUps: [], replaced: false, readTrades: 0 };
      if (outcome.status === 'done') settleDone(b, repos.drafts.entriesOfBatch(batchId), outcome.response);
      else if (outcome.status === 'unknown_outcome') settleUnknown(b, run, outcome.error);
      else if (outcome.status === 'stopped') {
        // Never processed (401/403, or the journal refused): it stays planned for the next start.
        repos.journal.setBatchState(batchId, 'planned', { status: 'stopped', error: outcome.error });
        repos.drafts.setStatus(run.draft_id, b.targets, 'queued');
        repos.activity.recordOutcome(batchId, 'stopped', outcome.error);
      } else if (ENDPOINTS[b.endpoint].write && outcome.error.kind === 'bad_response') {
        // The service answered but we cannot read what it did: as unknown as a lost response.
        settleUnknown(b, run, outcome.error);
      } else result = settleRefusal(repos, b, run, outcome.error, settled);
      deps.touched(run.draft_id, b.targets);
      return { followUps: result.followUps, settled, replaced: result.replaced, readTrades: result.readTrades ?? 0 };
    });
  }

  function planNext(runId: number): BatchTask[] {
    return store.transaction(() => advance(requireRun(runId), deps));
  }

  function settleDone(b: BatchRow, entries: readonly DraftEntry[], response: unknown): void {
    const draftId = requireRun(b.run_id).draft_id;
    let created: Map<string, CreatedListing> | null = null;
    if (b.endpoint === 'create_listing') {
      const parsed = createListingResponse.safeParse(response);
      created = new Map((parsed.success ? parsed.data.created_listings : []).map((c) => [c.asset_id, c]));
    }
    const missing: DraftEntry[] = [];
    const done: (DoneChange & { readonly target: string })[] = [];
    for (const e of entries) {
      // Undefined: a create the response does not list.
      const c = created && e.change.kind === 'listing.create' ? created.get(e.change.asset_id) : null;
      if (c === undefined) missing.push(e);
      else done.push({ change: e.change, created: c, target: e.target });
    }
    recordAppliedMany(repos, b.run_id, done);
    // In one write, not one a change: each is a savepoint of its own inside this transaction.
    repos.drafts.setStatus(draftId, done.map((d) => d.target), 'done', null);
    for (const e of missing) {
      repos.drafts.setStatus(draftId, [e.target], 'failed', {
        kind: 'rejected', endpoint: b.endpoint,
        message: `not created: the service's response does not list asset ${e.change.kind === 'listing.create' ? e.change.asset_id : ''}`,
      });
    }
    repos.journal.setBatchState(b.batch_id, 'done', { status: 'done' });
    const problem = missing.length === 0 ? null : { kind: 'rejected' as const, endpoint: b.endpoint, message: `${missing.length} of ${entries.length} items were not created` };
    repos.activity.recordOutcome(b.batch_id, problem ? 'failed' : 'done', problem);
  }

  function settleUnknown(b: BatchRow, run: RunRow, error: SerializedApiError): void {
    repos.journal.setBatchState(b.batch_id, 'unknown', { status: 'unknown_outcome', error });
    repos.drafts.setStatus(run.draft_id, b.targets, 'unknown', error);
    repos.activity.recordOutcome(b.batch_id, 'unknown_outcome', error);
  }

  function finishRun(runId: number, jobState: JobState): void {
    store.transaction(() => {
      const run = requireRun(runId);
      for (const b of repos.journal.batches({ runId, states: ['planned'] })) repos.journal.deleteBatch(b.batch_id);
      repos.drafts.moveStatus(run.draft_id, ['queued'], 'pending');
      repos.journal.queuedAll(runId);
      repos.journal.finishRun(runId, jobState === 'cancelled' ? 'cancelled' : jobState === 'stopped' ? 'stopped' : 'finished');
      deps.touched(run.draft_id, []);
    });
  }

  const requireBatch = (id: string) => {
    const b = repos.journal.batch(id);
    if (!b) throw new Error(`no journaled batch ${id}`);
    return b;
  };
  const requireRun = (id: number) => {
    const r = repos.journal.run(id);
    if (!r) throw new Error(`no apply run ${id}`);
    return r;
  };

  return { startRun, queueMore, prepareSend, markRetry, recordOutcome, planNext, finishRun };
}
