import type { Store } from '../store/db.ts';
import { createBulkJournal, type BulkWrite } from '../store/bulk-journal.ts';
import { withoutDiskWait } from '../store/without-disk-wait.ts';
import type { BulkEdits } from './bulk-edits.ts';

export type { BulkWrite };

/**
 * The journal of bulk edits being written. An edit of fifty thousand rows is
 * written a part per transaction (store/bulk-rows.ts), so a quit or a crash
 * can fall between parts; its row in `bulk_writes`, written with the first
 * part and removed with the last, says one is under way, with the selection
 * as the query that found it and the operation. Every row written carries
 * the edit's sequence number, so the next start writes the rest: the same
 * operation over the same selection, leaving out the rows that carry it.
 *
 * The journal row is stored before any part, on its own: from then on the
 * edit is the draft's, and the trader is told so while its parts are still
 * being written (the screens read the rest as a patch, see store/bulk-patch.ts).
 */
export interface BulkWriter {
  /** Notes the edit in the journal: from here on a quit or a crash finishes it at the next start. */
  begin(edit: BulkWrite): void;
  /** Writes what the last preview classified, the last part removing the journal row; after a failed part, again from there. */
  write(edit: BulkWrite, at: number): Promise<void>;
  /** Edits a quit or a crash cut short. */
  unfinished(): BulkWrite[];
  /** Forgets an unfinished edit that cannot be finished (its rows are refused now). */
  drop(draftId: string): void;
}

export function createBulkWriter(store: Pick<Store, 'db' | 'transaction' | 'clock'>, edits: BulkEdits): BulkWriter {
  const journal = createBulkJournal(store);
  return {
    begin: (edit) => journal.note(edit, store.clock.now()),
    async write(edit, at) {
      await edits.write(edit.draftId, edit.domain, edit.op, edit.seq, at, (part, last) => {
        const commit = () => store.transaction(() => {
          part();
          if (last) journal.done(edit.draftId);
        });
        // The edit is the trader's from its journal on: a part a power cut loses is written again at the next start
        // (the journal's row goes with the last part, whose commit waits for the disk and syncs the parts before it).
        // Waiting for the disk at every part held the worker up to 30 ms a part when the disk was busy.
        if (last) commit();
        else withoutDiskWait(store, commit);
      });
    },
    unfinished: () => journal.unfinished(),
    drop: (draftId) => journal.done(draftId),
  };
}
