import { conflict, DomainError } from '../errors.ts';
import type { BulkEditsDeps, BulkPlan, DraftBulkEdits } from '../drafts/draft-bulk.ts';
import type { BulkDomain, BulkOp } from '../../../src-shared/drafts.ts';
import type { SelectedRows } from '../store/ledger-reads.ts';
import { createBulkEdits } from './bulk-edits.ts';
import { createBulkWriter, type BulkWrite } from './bulk-writes.ts';

/**
 * A draft service's bulk edits: previews and edits take turns with the
 * scratch table they classify rows into (one at a time), and an edit is
 * journaled first, then written a part at a time (bulk-writes.ts) while the
 * screens read the parts not written yet as a patch (store/bulk-patch.ts). A part
 * that meets a full disk, an I/O error or a busy file is tried again, later
 * and later, until it is written; the journal keeps the edit meanwhile.
 */
export type BulkJobs = DraftBulkEdits;

/** What the draft service hands its bulk edits (see drafts/draft-bulk.ts). */
export type BulkJobsDeps = BulkEditsDeps;

/** A part that met a full disk or a busy file is tried again after this, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

export function createBulkJobs(deps: BulkJobsDeps): BulkJobs {
  const { store, repos, guard, changed } = deps;
  const edits = createBulkEdits(store, deps.turn);
  const writer = createBulkWriter(store, edits);
  let turn: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(job: () => Promise<T>): Promise<T> => {
    const run = turn.then(job, job);
    turn = run.catch(() => undefined);
    return run;
  };
  /** Drafts an edit is being written into, each with what its last failed part met (null while it goes well). */
  const writing = new Map<string, Error | null>();
  /** The draft's versions around the laying of each edit being written over it (see BulkPatch.laid). */
  const laid = new Map<string, { before: number; after: number }>();
  let disposed = false;

  async function writeParts(edit: BulkWrite, at: number): Promise<void> {
    for (let waitMs = RETRY_FIRST_MS; ; waitMs = Math.min(waitMs * 2, RETRY_MAX_MS)) {
      try {
        await writer.write(edit, at);
        return;
      } catch (e) {
        // A full disk, an I/O error or another program holding the file passes; anything else is a fault, not a wait.
        if (disposed || !(e instanceof DomainError && ['disk_full', 'io', 'busy'].includes(e.kind))) throw e;
        writing.set(edit.draftId, e);
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  /** The last preview, kept for the edit that follows it: the trader confirms what it showed. Its rows stay in the scratch table. */
  let lastPreview: { state: string; plan: BulkPlan } | null = null;
  const previewState = (id: string | null, domain: BulkDomain, rows: SelectedRows, op: BulkOp) =>
    JSON.stringify([id, deps.stateOf(id), store.ledgerVersion, domain, rows.sql, rows.params, op, guard()]);

  return {
    preview(id, domain, rows, op) {
      return exclusive(async () => {
        const state = previewState(id, domain, rows, op);
        const plan = await edits.preview(id, domain, rows, op, guard());
        lastPreview = previewState(id, domain, rows, op) === state ? { state, plan } : null;
        return plan;
      });
    },
    edit(id, domain, rows, op, journaled) {
      writing.set(id, null);
      return exclusive(async () => {
        // Every part written: the draft as stored is what the screens read with the patch laid over.
        let written = false;
        try {
          const state = previewState(id, domain, rows, op);
          // The preview the trader saw is written as it was classified, if nothing moved since.
          const plan: BulkPlan = lastPreview?.state === state ? lastPreview.plan : await edits.preview(id, domain, rows, op, guard());
          lastPreview = null;
          if (plan.refused.length === 0 && plan.changed > 0) {
            // One sequence number for the whole edit: its rows were made at once (and a resumed write knows them by it).
            const edit = { draftId: id, seq: repos.drafts.takeSeqs(id, 1), domain, rows, op };
            writer.begin(edit);
            // The edit is the draft's: its parts not written yet are read as a patch until they are.
            const parts = writeParts(edit, store.clock.now());
            const before = deps.stateOf(id);
            changed(id);
            laid.set(id, { before, after: deps.stateOf(id) });
            journaled?.(plan);
            await parts;
            written = true;
          }
          return plan;
        } catch (e) {
          // A journaled edit left unwritten is finished at the next start; the screens read the draft as stored meanwhile.
          edits.abandon();
          throw e;
        } finally {
          writing.delete(id);
          laid.delete(id);
          changed(id, written);
        }
      });
    },
    assertIdle(id) {
      if (!writing.has(id)) return;
      const stalled = writing.get(id);
      throw conflict(stalled
        ? `A bulk edit is still being written into this draft (${stalled.message}); it is tried again every few seconds`
        : 'A bulk edit is being written into this draft; try again in a moment');
    },
    busy: (id) => writing.has(id),
    async settled(withinMs) {
      if (writing.size === 0) return;
      // Every edit is written on the exclusive turn: its end is the turn's end, or the time is up (a stalled one).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
      await Promise.race([turn, timeUp]);
      clearTimeout(timer);
    },
    patch(id, domain) {
      const patch = writing.has(id) ? edits.patch(id, domain) : null;
      const versions = laid.get(id);
      return patch && versions ? { ...patch, laid: versions } : patch;
    },
    resume() {
      return exclusive(async () => {
        for (const edit of writer.unfinished()) {
          writing.set(edit.draftId, null);
          try {
            const plan = await edits.preview(edit.draftId, edit.domain, edit.rows, edit.op, guard(), edit.seq);
            lastPreview = null;
            if (plan.refused.length === 0 && plan.changed > 0) await writeParts(edit, store.clock.now());
            else writer.drop(edit.draftId);
          } finally {
            writing.delete(edit.draftId);
            changed(edit.draftId);
          }
        }
      });
    },
    dispose() {
      disposed = true;
    },
  };
}
