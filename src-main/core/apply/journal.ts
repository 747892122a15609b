import { ENDPOINTS, type EndpointName, type RequestOf } from '../api/endpoints.ts';
import type { SerializedApiError } from '../api/errors.ts';
import { createListingResponse, type CreatedListing } from '../api/schemas.ts';
import type { DraftEntry } from '../drafts/change.ts';
import type { BatchOutcome, BatchTask, JobState } from '../scheduler/index.ts';
import type { Store } from '../store/db.ts';
import type { BatchRow, RunRow } from '../store/journal-repo.ts';
import { recordInLedger } from './ledger-effects.ts';
import { advance, settleAsDone, taskOf, type PhaseDeps } from './phases.ts';
import { refusedItems } from './refused-items.ts';

/**
 * The apply journal's steps, each one committed transaction: a run starts
 * (its changes queued), a batch is marked sent just before it goes, and its
 * outcome is recorded after, together with what it does to the ledger, the
 * draft and the activity log. Nothing is sent that was not journaled first,
 * so after a crash a batch is either known unsent or has an unknown outcome.
 */
export interface Journal {
  /** Queues the draft's pending and failed changes into a new run. */
  startRun(draftId: string): RunRow;
  /** Journals the batch as sent (idempotent: the scheduler calls it before every attempt). */
  markSent(batchId: string): void;
  /** An attempt changed nothing (429, not sent, 5xx) and will be made again: unsent until then. */
  markRetry(batchId: string, error: SerializedApiError): void;
  /**
   * Records an outcome; returns the follow-up tasks (the rest or halves of a
   * refused batch, the next phase) and the items it settled without a request
   * of their own (a refused item the service named; no-op edits; creates held
   * back), which the job's own counts cannot know.
   */
  recordOutcome(batchId: string, outcome: BatchOutcome): OutcomeResult;
  /** Ends a run: batches never sent are unplanned and their changes are pending again. */
  finishRun(runId: number, jobState: JobState): void;
}

export interface OutcomeResult {
  readonly followUps: BatchTask[];
  readonly settled: { done: number; failed: number };
}

export function createJournal(store: Store, deps: PhaseDeps): Journal {
  const { repos } = deps;
  const mainAccount = () => repos.accounts.main()?.account_id ?? null;
  /** Items the outcome being recorded settled without a request of their own. */
  let settled = { done: 0, failed: 0 };

  function startRun(draftId: string): RunRow {
    return store.transaction(() => {
      const run = repos.journal.createRun(draftId);
      const sendable = repos.drafts.entriesByStatus(draftId, ['pending', 'failed']);
      repos.drafts.setStatus(draftId, sendable.map((e) => e.target), 'queued', null, null);
      deps.touched(draftId, sendable.map((e) => e.target));
      return run;
    });
  }

  function markSent(batchId: string): void {
    store.transaction(() => {
      const b = requireBatch(batchId);
      if (b.state !== 'planned') return;
      const run = requireRun(b.run_id);
      repos.journal.setBatchState(batchId, 'sent');
      repos.drafts.setStatus(run.draft_id, b.targets, 'sent');
      repos.activity.recordSent({ batchId, endpoint: b.endpoint, account: b.proxy ?? mainAccount(), targets: b.targets, itemCount: b.item_count });
      deps.touched(run.draft_id, b.targets);
    });
  }

  function markRetry(batchId: string, error: SerializedApiError): void {
    store.transaction(() => {
      const b = requireBatch(batchId);
      if (b.state !== 'sent') return;
      const run = requireRun(b.run_id);
      repos.journal.setBatchState(batchId, 'planned');
      repos.drafts.setStatus(run.draft_id, b.targets, 'queued');
      // That request was sent and refused without effect: its log entry says so; the next attempt gets its own.
      repos.activity.recordOutcome(batchId, 'failed', error);
      deps.touched(run.draft_id, b.targets);
    });
  }

  function recordOutcome(batchId: string, outcome: BatchOutcome): OutcomeResult {
    return store.transaction(() => {
      settled = { done: 0, failed: 0 };
      const b = requireBatch(batchId);
      const run = requireRun(b.run_id);
      const entries = repos.drafts.entriesOfBatch(batchId);
      let followUps: BatchTask[] = [];
      if (outcome.status === 'done') settleDone(b, entries, outcome.response);
      else if (outcome.status === 'unknown_outcome') settleUnknown(b, run, outcome.error);
      else if (outcome.status === 'stopped') {
        // Never processed (401/403, or the journal refused): it stays planned for the next start.
        repos.journal.setBatchState(batchId, 'planned', { status: 'stopped', error: outcome.error });
        repos.drafts.setStatus(run.draft_id, b.targets, 'queued');
        repos.activity.recordOutcome(batchId, 'stopped', outcome.error);
      } else if (ENDPOINTS[b.endpoint].write && outcome.error.kind === 'bad_response') {
        // The service answered but we cannot read what it did: as unknown as a lost response.
        settleUnknown(b, run, outcome.error);
      } else if ((outcome.error.kind === 'rejected' || outcome.error.kind === 'invalid') && b.item_count > 1) {
        followUps = split(b, run, entries, outcome.error);
      } else settleFailed(b, run, entries, outcome.error);
      deps.touched(run.draft_id, b.targets);
      if (outcome.status !== 'stopped') followUps = [...followUps, ...advance(run, deps)];
      return { followUps, settled };
    });
  }

  function settleDone(b: BatchRow, entries: readonly DraftEntry[], response: unknown): void {
    const draftId = requireRun(b.run_id).draft_id;
    let created: Map<string, CreatedListing> | null = null;
    if (b.endpoint === 'create_listing') {
      const parsed = createListingResponse.safeParse(response);
      created = new Map((parsed.success ? parsed.data.created_listings : []).map((c) => [c.asset_id, c]));
    }
    const missing: DraftEntry[] = [];
    for (const e of entries) {
      if (created && e.change.kind === 'listing.create') {
        const c = created.get(e.change.asset_id);
        if (!c) {
          missing.push(e);
          continue;
        }
        recordInLedger(repos, e.change, c);
      } else recordInLedger(repos, e.change);
      repos.drafts.setStatus(draftId, [e.target], 'done', null);
    }
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

  /**
   * Settles a refused batch (or, from split, its one named item: `whole`
   * false leaves the journal row and activity entry to the caller).
   */
  function settleFailed(b: BatchRow, run: RunRow, entries: readonly DraftEntry[], error: SerializedApiError, whole = true): boolean {
    // Deleting what may already be gone (a resolution's "delete and create again"): a refusal means it is gone.
    const gone = entries.filter((e) => error.kind === 'rejected' && b.item_count === 1
      && (e.change.kind === 'listing.delete' || e.change.kind === 'buyOrder.delete') && e.change.if_exists === true);
    if (gone.length > 0) {
      settleAsDone(run.draft_id, gone, repos);
    } else {
      repos.drafts.setStatus(run.draft_id, b.targets, 'failed', error);
    }
    if (whole) {
      repos.journal.setBatchState(b.batch_id, gone.length > 0 ? 'done' : 'failed', { status: gone.length > 0 ? 'done' : 'failed', error });
      repos.activity.recordOutcome(b.batch_id, gone.length > 0 ? 'done' : 'failed', error);
    }
    return gone.length > 0;
  }

  /**
   * A batch refused as a whole goes on without its bad items. When the
   * refusal names them (by index or by an identifier of the batch; see
   * refused-items.ts), they settle with the refusal and the rest goes on as
   * one batch; otherwise the batch goes on as two halves, until the bad item
   * is alone.
   */
  function split(b: BatchRow, run: RunRow, entries: readonly DraftEntry[], error: SerializedApiError): BatchTask[] {
    repos.journal.setBatchState(b.batch_id, 'split', { status: 'failed', error });
    repos.activity.recordOutcome(b.batch_id, 'failed', error);
    const { items, ...rest } = b.input as { items: unknown[] };
    const named = new Set(refusedItems(error, items));
    const child = (keep: (i: number) => boolean): BatchTask | null => {
      const indexes = items.map((_, i) => i).filter(keep);
      if (indexes.length === 0) return null;
      const input = { ...rest, items: indexes.map((i) => items[i]) } as RequestOf<EndpointName>;
      const targets = indexes.map((i) => b.targets[i] as string);
      const row = repos.journal.insertBatch({ runId: b.run_id, parentId: b.batch_id, endpoint: b.endpoint, proxy: b.proxy, phase: b.phase, input, targets });
      repos.drafts.setStatus(run.draft_id, targets, 'queued', null, row.batch_id);
      return taskOf(row);
    };
    if (named.size > 0) {
      for (const index of named) {
        const target = b.targets[index];
        const bad = entries.filter((e) => e.target === target);
        const gone = settleFailed({ ...b, targets: target === undefined ? [] : [target], item_count: 1 }, run, bad, error, false);
        if (gone) settled.done += 1;
        else settled.failed += 1;
      }
      const restTask = child((i) => !named.has(i));
      return restTask ? [restTask] : [];
    }
    const half = Math.ceil(items.length / 2);
    return [child((i) => i < half), child((i) => i >= half)].filter((t): t is BatchTask => t !== null);
  }

  function finishRun(runId: number, jobState: JobState): void {
    store.transaction(() => {
      const run = requireRun(runId);
      for (const b of repos.journal.batches({ runId, states: ['planned'] })) repos.journal.deleteBatch(b.batch_id);
      const queued = repos.drafts.entriesByStatus(run.draft_id, ['queued']);
      repos.drafts.setStatus(run.draft_id, queued.map((e) => e.target), 'pending', null, null);
      repos.journal.finishRun(runId, jobState === 'cancelled' ? 'cancelled' : jobState === 'stopped' ? 'stopped' : 'finished');
      deps.touched(run.draft_id, queued.map((e) => e.target));
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

  return { startRun, markSent, markRetry, recordOutcome, finishRun };
}
