import type { DraftService } from '../../core/drafts/draft-service.ts';
import type { ItemNames } from '../../core/items/item-names.ts';
import type { Handlers } from '../router.ts';
import type { Stamps } from '../stamps.ts';
import { addChangesView, changeRowView } from './draft-results.ts';

type DraftChannels =
  | 'drafts:list' | 'drafts:create' | 'drafts:rename' | 'drafts:select' | 'drafts:discard'
  | 'drafts:addChanges' | 'drafts:removeChanges' | 'drafts:removeFailed' | 'drafts:review' | 'drafts:page';

/** What the draft channels use: the current workspace's drafts and item names. */
export interface DraftChannelServices {
  drafts(): Pick<DraftService,
    'current' | 'list' | 'create' | 'rename' | 'select' | 'discard' | 'ensureCurrent' | 'addChanges' | 'removeChanges' | 'removeFailed' | 'review' | 'reviewPage'>;
  names(): ItemNames | null;
}

/** Handlers for building drafts offline: every edit is stored before the reply. */
export function draftHandlers(services: DraftChannelServices, stamps: Stamps): Pick<Handlers, DraftChannels> {
  const drafts = () => services.drafts();
  return {
    'drafts:list': () => {
      const stamp = stamps.of('drafts');
      return { stamp, currentId: drafts().current(), drafts: drafts().list() };
    },
    'drafts:create': ({ name }) => drafts().create(name),
    'drafts:rename': ({ draftId, name }) => drafts().rename(draftId, name),
    'drafts:select': ({ draftId }) => drafts().select(draftId),
    'drafts:discard': ({ draftId }) => {
      drafts().discard(draftId);
      return { ok: true as const };
    },
    'drafts:addChanges': ({ changes }) => {
      const draftId = drafts().ensureCurrent();
      return addChangesView({ ...drafts().addChanges(draftId, changes), draftId });
    },
    'drafts:removeChanges': ({ draftId, changeIds }) => ({ removed: drafts().removeChanges(draftId, changeIds).added }),
    'drafts:removeFailed': ({ draftId }) => ({ removed: drafts().removeFailed(draftId) }),
    'drafts:review': async ({ draftId }) => {
      const stamp = stamps.of('drafts');
      const r = await drafts().review(draftId);
      return {
        stamp, draftId, openByKind: { ...r.openByKind }, byStatus: { ...r.byStatus },
        requestsPerEndpoint: { ...r.requestsPerEndpoint }, etaMs: r.etaMs, removes: { ...r.removes }, guard: r.guard,
      };
    },
    'drafts:page': ({ draftId, kind, show, text, offset, limit }) => {
      const stamp = stamps.of('drafts');
      const page = drafts().reviewPage(draftId, { show, offset, limit, ...(kind === undefined ? {} : { kind }), ...(text === undefined ? {} : { text }) });
      const names = services.names();
      return { stamp, draftId, offset, total: page.total, rows: page.rows.map((r) => changeRowView(r, names)) };
    },
  };
}
