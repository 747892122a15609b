import type { ActivityEntry } from '../../../src-shared/contract.ts';
import type { ApplyService } from '../../core/apply/apply-draft.ts';
import type { ActivityRow } from '../../core/store/activity-repo.ts';
import type { BulkResult } from '../../core/drafts/draft-service.ts';
import type { LedgerTables } from '../../core/bulk/ledger-tables.ts';
import type { Handlers } from '../router.ts';
import type { Stamps } from '../stamps.ts';
import { bulkOutcomeView, addChangesView } from './draft-results.ts';

type LedgerChannels =
  | 'ledger:page' | 'ledger:keys' | 'ledger:preview' | 'ledger:bulk' | 'ledger:delete' | 'ledger:revert' | 'ledger:deleteAllImpact'
  | 'ledger:facets' | 'activity:list';

/**
 * Handlers for the ledger tables (pages with the current draft laid over
 * them, edits over a selection) and the activity log. A page carries the
 * stamps of the ledger and the drafts it was computed from.
 */
export interface LedgerChannelServices {
  tables(): Pick<LedgerTables, 'page' | 'preview' | 'bulk' | 'deleteRows' | 'revertRows' | 'deleteAllImpact' | 'facets'>;
  /** The activity log is the apply's. */
  apply(): Pick<ApplyService, 'activity'>;
}

export function ledgerHandlers(services: LedgerChannelServices, stamps: Stamps): Pick<Handlers, LedgerChannels> {
  const tables = () => services.tables();
  return {
    'ledger:page': ({ domain, filter, sort, offset, limit }) => {
      const s = { ledger: stamps.of('ledger'), drafts: stamps.of('drafts') };
      const page = tables().page(domain, filter, sort, offset, limit);
      return { domain, draftId: page.draftId, stamps: s, offset, total: page.total, all: page.all, changed: page.changed, rows: page.rows };
    },
    'ledger:keys': ({ domain, filter, sort, offset, limit }) => {
      const page = tables().page(domain, filter, sort, offset, limit);
      return { keys: page.rows.map((r) => r.key) };
    },
    'ledger:preview': async ({ domain, selection, op }) => bulkOutcomeView(await tables().preview(domain, selection, op)),
    'ledger:bulk': ({ domain, selection, op }) => new Promise((answer, fail) => {
      // Answered as soon as the edit is the draft's (journaled); its parts are written after, the screens reading them as a patch.
      const told = (result: BulkResult & { draftId: string }) => answer({ ...bulkOutcomeView(result), draftId: result.draftId });
      tables().bulk(domain, selection, op, told).then(told, fail);
    }),
    'ledger:delete': ({ domain, selection }) => addChangesView(tables().deleteRows(domain, selection)),
    'ledger:revert': ({ domain, selection }) => tables().revertRows(domain, selection),
    'ledger:deleteAllImpact': ({ domain, activeOnly }) => ({ domain, ...tables().deleteAllImpact(domain, activeOnly) }),
    'ledger:facets': ({ domain }) => tables().facets(domain),
    'activity:list': ({ text, outcome, limit }) =>
      services.apply()
        .activity({
          ...(text ? { text } : {}),
          ...(outcome ? { status: outcome as ActivityRow['status'] } : {}),
          limit: limit ?? 500,
        })
        .map(activityView),
  };
}

export const activityView = (row: ActivityRow): ActivityEntry => ({
  id: row.id,
  at: row.at,
  endpoint: row.endpoint,
  itemCount: row.item_count,
  outcome: row.status,
  message: [
    row.account ? `account ${row.account}` : null,
    row.targets.length > 0 ? `${row.targets.slice(0, 5).join(', ')}${row.targets.length > 5 ? ` and ${row.targets.length - 5} more` : ''}` : null,
    row.error?.message ?? null,
    row.note,
  ]
    .filter((part): part is string => part !== null)
    .join(' · '),
});
