import { notFound, quoted, refused } from '../errors.ts';
import type { EndpointName } from '../api/endpoints.ts';
import { buyOrderDeleteKey, listingDeleteKey, type Change } from '../drafts/change.ts';
import type { Store } from '../store/db.ts';
import type { Repos } from '../store/index.ts';
import type { EvidenceRow, RunRow } from '../store/journal-repo.ts';
import { settleAsDone } from './phases.ts';
import type { ResolutionChoice } from '../../../src-shared/drafts.ts';

/**
 * After a crash or a kill: batches journaled as sent without an outcome have
 * an unknown outcome. They are never re-sent silently; the trader is shown
 * each one with the choices that make sense for its endpoint.
 */
export { resolutionChoice } from '../../../src-shared/drafts.ts';
export type { ResolutionChoice } from '../../../src-shared/drafts.ts';

export interface ChoiceView {
  readonly id: ResolutionChoice;
  readonly label: string;
  /** Whether this choice can never leave a duplicate or a lost change behind. */
  readonly safe: boolean;
  readonly explanation: string;
}

export interface UnknownOutcome {
  /** The journaled batch. */
  readonly id: string;
  readonly draftId: string;
  readonly endpoint: EndpointName;
  readonly sentAt: number | null;
  readonly reason: string;
  readonly items: readonly { readonly target: string; readonly change: Change }[];
  readonly choices: readonly ChoiceView[];
  /**
   * What the service said since about these items, to weigh the choices by:
   * e.g. a later create of the same asset refused as "already listed" means
   * this create most likely went through.
   */
  readonly evidence: readonly EvidenceRow[];
}

const MARK_DONE: ChoiceView = {
  id: 'mark_done', label: 'Mark as done', safe: false,
  explanation: 'Record it as applied without sending anything. Right if you checked that the service did it.',
};
const DROP: ChoiceView = {
  id: 'drop', label: 'Drop', safe: false,
  explanation: 'Forget this change. If the service did apply it, the ledger will not know.',
};
const SEND_AGAIN: ChoiceView = {
  id: 'send_again', label: 'Send again', safe: true,
  explanation: 'Safe: it sets absolute values (or deletes), so sending it twice ends in the same state; a delete of something already gone counts as done.',
};

/** The choices for a lost response of this endpoint. Creates are not idempotent: no plain "send again". */
export function choicesFor(endpoint: EndpointName): ChoiceView[] {
  switch (endpoint) {
    case 'create_listing':
      return [
        { id: 'recreate', label: 'Delete by asset ID and create again', safe: true,
          explanation: 'Deletes any listing of the asset first (a refusal because there is none counts as done), then lists it again: never two listings for one asset.' },
        { ...MARK_DONE, explanation: 'Record the listing as created. Its listing ID is unknown, so it is flagged and cannot be edited until it is deleted and listed again.' },
        DROP,
      ];
    case 'create_buy_order':
      return [
        { id: 'recreate', label: 'Delete by SKU and create again', safe: true,
          explanation: 'Deletes any buy order for the SKU first (only its unfilled part), then creates it again.' },
        { ...MARK_DONE, explanation: 'Record the buy order as created; its quantity may have been cut to floor(balance / price).' },
        DROP,
      ];
    default:
      return [SEND_AGAIN, MARK_DONE, DROP];
  }
}

/** Marks every batch sent without an outcome as unknown. Returns the runs to resume. */
export function recoverJournal(store: Store, repos: Repos, touched: (draftId: string, targets: readonly string[]) => void): RunRow[] {
  return store.transaction(() => {
    for (const b of repos.journal.batches({ states: ['sent'] })) {
      const run = repos.journal.run(b.run_id);
      if (!run) continue;
      const error = { kind: 'unknown_outcome' as const, endpoint: b.endpoint, message: 'the app stopped after sending this batch and before recording its response' };
      repos.journal.setBatchState(b.batch_id, 'unknown', { status: 'unknown_outcome', error });
      repos.drafts.setStatus(run.draft_id, b.targets, 'unknown', error);
      repos.activity.recordOutcome(b.batch_id, 'unknown_outcome', error);
      touched(run.draft_id, b.targets);
    }
    return repos.journal.runs({ state: 'running' });
  });
}

/** Every batch whose outcome is unknown and still unresolved, with its choices. */
export function listUnknownOutcomes(repos: Repos): UnknownOutcome[] {
  const out: UnknownOutcome[] = [];
  for (const b of repos.journal.batches({ states: ['unknown'] })) {
    const items = repos.drafts.entriesOfBatch(b.batch_id).filter((e) => e.status === 'unknown');
    if (items.length === 0) continue;
    const run = repos.journal.run(b.run_id);
    out.push({
      id: b.batch_id,
      draftId: run?.draft_id ?? '',
      endpoint: b.endpoint,
      sentAt: b.sent_at,
      reason: b.outcome?.error?.message ?? 'the response was lost',
      items: items.map((e) => ({ target: e.target, change: e.change })),
      choices: choicesFor(b.endpoint),
      evidence: repos.journal.evidence(b.batch_id),
    });
  }
  return out;
}

export interface ResolveDeps {
  readonly store: Store;
  readonly repos: Repos;
  /** Adds a change to a draft (ordered after its other changes), pending. */
  readonly addEntry: (draftId: string, target: string, change: Change) => void;
  readonly touched: (draftId: string, targets: readonly string[]) => void;
}

/**
 * Applies the trader's choice to every unresolved item of a batch. The draft
 * then holds what to send on the next apply (for `recreate` and `send_again`).
 */
export function resolveUnknown(batchId: string, choice: ResolutionChoice, deps: ResolveDeps): void {
  const { store, repos } = deps;
  store.transaction(() => {
    const b = repos.journal.batch(batchId);
    if (!b || b.state !== 'unknown') throw notFound(`There is no unresolved unknown outcome ${quoted(batchId)}; it may have been resolved already`);
    if (!choicesFor(b.endpoint).some((c) => c.id === choice)) throw refused(`“${choice}” is not one of the choices for this outcome (${b.endpoint})`);
    const run = repos.journal.run(b.run_id);
    if (!run) throw new Error(`no apply run for batch ${batchId}`);
    const draftId = run.draft_id;
    const items = repos.drafts.entriesOfBatch(batchId).filter((e) => e.status === 'unknown');
    for (const e of items) {
      const c = e.change;
      if (choice === 'mark_done') settleAsDone(draftId, [e], repos, b.run_id);
      else if (choice === 'drop') repos.drafts.setStatus(draftId, [e.target], 'dropped', null, null);
      else if (choice === 'send_again') {
        const again = c.kind === 'listing.delete' || c.kind === 'buyOrder.delete' ? { ...c, if_exists: true } : c;
        repos.drafts.replaceChange(draftId, e.target, again, 'pending');
      } else if (c.kind === 'listing.create') {
        deps.addEntry(draftId, listingDeleteKey(c.asset_id), { kind: 'listing.delete', account: c.account, asset_id: c.asset_id, if_exists: true });
        repos.drafts.replaceChange(draftId, e.target, c, 'pending');
      } else if (c.kind === 'buyOrder.create') {
        deps.addEntry(draftId, buyOrderDeleteKey(c.sku), { kind: 'buyOrder.delete', account: c.account, sku: c.sku, if_exists: true });
        repos.drafts.replaceChange(draftId, e.target, c, 'pending');
      }
    }
    repos.journal.setBatchState(batchId, 'resolved', { status: 'unknown_outcome', ...(b.outcome?.error ? { error: b.outcome.error } : {}) });
    deps.touched(draftId, items.map((e) => e.target));
  });
}
