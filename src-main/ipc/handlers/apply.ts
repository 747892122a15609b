import type { ApplyProgressView, ReviewView, UnknownOutcomeView } from '../../../src-shared/contract.ts';
import type { ApplyProgress } from '../../core/apply/apply-draft.ts';
import type { UnknownOutcome } from '../../core/apply/recovery.ts';
import type { Desk } from '../../core/desk/desk.ts';
import type { DraftReview } from '../../core/drafts/review.ts';
import type { Handlers } from '../router.ts';
import { Refused } from './refused.ts';

type ApplyChannels =
  | 'drafts:review' | 'drafts:exportCsv' | 'drafts:importCsv' | 'drafts:importCommit' | 'drafts:apply'
  | 'apply:progress' | 'apply:pause' | 'apply:resume' | 'apply:cancel' | 'apply:unknownOutcomes' | 'apply:resolve';


/** Handlers for reviewing, importing, exporting and applying drafts, and resolving lost responses. */
export function applyHandlers(desk: Desk, ledgerChanged: () => void): Pick<Handlers, ApplyChannels> {
  const ws = () => desk.workspace();
  const handle = (jobId: string) => {
    const found = ws().apply.byJob(jobId);
    if (!found) throw new Refused(`No apply is running with job ${jobId}.`);
    return found;
  };
  return {
    'drafts:review': ({ draftId }) => reviewView(ws().drafts.review(draftId)),
    'drafts:exportCsv': ({ draftId }) => ({ csv: ws().csv.exportDraft(draftId) }),
    'drafts:importCsv': ({ kind, csv, draftId }) => {
      const preview = ws().csv.previewImport(kind, csv, draftId === undefined ? {} : { draftId });
      return { ...preview, errors: [...preview.errors] };
    },
    'drafts:importCommit': ({ token }) => {
      const { imported } = ws().csv.commitImport(token);
      ledgerChanged();
      return { imported };
    },
    // Core refuses it while automation is off, when the trader asked for that.
    'drafts:apply': ({ draftId }) => applyProgressView(ws().apply.apply(draftId).progress()),
    'apply:progress': () => {
      const running = ws().apply.handles().at(-1);
      return running ? applyProgressView(running.progress()) : null;
    },
    'apply:pause': ({ jobId }) => {
      const h = handle(jobId);
      h.job.pause();
      return applyProgressView(h.progress());
    },
    'apply:resume': ({ jobId }) => {
      const h = handle(jobId);
      h.job.resume();
      return applyProgressView(h.progress());
    },
    'apply:cancel': ({ jobId }) => {
      const h = handle(jobId);
      h.job.cancel();
      return applyProgressView(h.progress());
    },
    'apply:unknownOutcomes': () => ws().apply.unknownOutcomes().map(unknownOutcomeView),
    'apply:resolve': ({ id, choice }) => {
      const left = ws().apply.resolve(id, choice).map(unknownOutcomeView);
      ledgerChanged();
      return left;
    },
  };
}

export const applyProgressView = (p: ApplyProgress): ApplyProgressView => ({
  jobId: p.jobId,
  draftId: p.draftId,
  state: p.state,
  itemsTotal: p.itemsTotal,
  itemsDone: p.itemsDone,
  itemsFailed: p.itemsFailed,
  itemsUnknown: p.itemsUnknown,
  itemsLeft: p.itemsLeft,
  requestsSent: p.requestsSent,
  etaMs: p.etaMs,
  startedAt: p.startedAt,
  ...(p.stopReason === undefined ? {} : { stopReason: p.stopReason }),
});

export const unknownOutcomeView = (u: UnknownOutcome): UnknownOutcomeView => ({
  id: u.id,
  draftId: u.draftId,
  endpoint: u.endpoint,
  sentAt: u.sentAt,
  reason: u.reason,
  items: u.items.map((i) => ({ target: i.target, change: { ...i.change } })),
  choices: u.choices.map((c) => ({ ...c })),
  evidence: u.evidence.map((e) => ({ ...e })),
});

export const reviewView = (r: DraftReview): ReviewView => ({
  draftId: r.draftId,
  totalRows: r.totalRows,
  rows: r.rows.map((row) => ({
    changeId: row.changeId,
    kind: row.kind,
    target: row.target,
    fields: row.fields.map((f) => ({ ...f })),
    note: row.note,
  })),
  requestsPerEndpoint: { ...r.requestsPerEndpoint },
  etaMs: r.etaMs,
  removes: { ...r.removes },
});
