import type { ApplyService } from '../../core/apply/apply-draft.ts';
import type { ApplyJobTracker } from '../../core/apply/apply-job.ts';
import type { CsvService } from '../../core/csv/csv-service.ts';
import type { DraftService } from '../../core/drafts/draft-service.ts';
import type { ItemNames } from '../../core/items/item-names.ts';
import { DomainError } from '../../core/errors.ts';
import type { Handlers } from '../router.ts';
import type { DeskViews } from '../views.ts';
import { undoResultView } from './draft-results.ts';

type ApplyChannels =
  | 'drafts:exportCsv' | 'drafts:importCsvPart' | 'drafts:importCommit' | 'drafts:apply'
  | 'apply:state' | 'apply:pause' | 'apply:resume' | 'apply:cancel' | 'apply:unknownOutcomes' | 'apply:resolve' | 'apply:undo' | 'apply:relistDeleted';

/** The most refused CSV lines a preview names; it counts them all. */
const CSV_ERRORS_SHOWN = 200;

/** Whether a CSV file's header has a `name` column (items named instead of SKUs): read from its first part. */
function namesItems(csv: string): boolean {
  const header = csv.slice(0, 2_000).replace(/^\uFEFF/, '').trimStart().split(/\r?\n|\r/, 1)[0] ?? '';
  return header.split(/[,;\t]/).some((cell) => cell.trim().replace(/^"|"$/g, '').toLowerCase() === 'name');
}

/**
 * Handlers for importing, exporting and applying drafts, steering the apply
 * job, resolving lost responses and undoing an apply. Every reply is the job's or the
 * outcomes' view after the action, stamped.
 */
export interface ApplyChannelServices {
  apply(): Pick<ApplyService, 'byJob' | 'resolve' | 'undo' | 'relistDeleted'>;
  applyJob(): Pick<ApplyJobTracker, 'start'>;
  csv(): Pick<CsvService, 'exportDraft' | 'startImport' | 'importPart' | 'commitImport'>;
  drafts(): Pick<DraftService, 'ensureCurrent'>;
  names(): ItemNames | null;
}

export function applyHandlers(services: ApplyChannelServices, views: DeskViews): Pick<Handlers, ApplyChannels> {
  const handle = (jobId: string) => {
    const found = services.apply().byJob(jobId);
    if (!found) throw new DomainError('not_found', 'That apply is no longer running');
    return found;
  };
  return {
    'drafts:exportCsv': async ({ draftId, format }) => ({ csv: await services.csv().exportDraft(draftId, format) }),
    'drafts:importCsvPart': async (part) => {
      const csv = services.csv();
      let upload: string;
      if ('kind' in part) {
        // A file that names items is read with the name → SKU tables: built once, on a later turn (about half a second, the first time).
        if (namesItems(part.text)) await services.names()?.warm({ reverse: true });
        upload = csv.startImport(part.kind, { draftId: services.drafts().ensureCurrent(), dialect: part.dialect });
      } else {
        upload = part.upload;
      }
      const preview = await csv.importPart(upload, { seq: part.seq, text: part.text, last: part.last });
      return {
        upload,
        preview: preview && {
          ...preview, errors: preview.errors.slice(0, CSV_ERRORS_SHOWN),
          notInInventory: { count: preview.notInInventory.count, sample: preview.notInInventory.sample.map((s) => ({ ...s })) },
        },
      };
    },
    'drafts:importCommit': async ({ token }) => {
      const result = await services.csv().commitImport(token);
      return { imported: result.imported, refused: result.errorCount, changedSince: result.changedSince };
    },
    'drafts:apply': ({ draftId, confirmGuard }) => {
      // Core refuses it while automation is off, when the trader asked for that, and marked prices nobody confirmed.
      services.applyJob().start(draftId, { confirmGuard });
      return views.apply();
    },
    'apply:state': () => views.apply(),
    'apply:pause': ({ jobId }) => {
      handle(jobId).job.pause();
      return views.apply();
    },
    'apply:resume': ({ jobId }) => {
      handle(jobId).job.resume();
      return views.apply();
    },
    'apply:cancel': ({ jobId }) => {
      handle(jobId).job.cancel();
      return views.apply();
    },
    'apply:unknownOutcomes': () => views.outcomes(),
    'apply:resolve': ({ id, choice }) => {
      services.apply().resolve(id, choice);
      return views.outcomes();
    },
    'apply:undo': async ({ runId }) => undoResultView(await services.apply().undo(runId), services.names()),
    'apply:relistDeleted': async ({ runId }) => {
      const r = await services.apply().relistDeleted(runId);
      return { draftId: r.draftId, name: r.name, added: r.added, refused: r.refused, reasons: [...r.reasons] };
    },
  };
}

