import type { ChangeView } from '../../../src-shared/contract.ts';
import type { DraftEntry } from '../../core/drafts/change.ts';
import type { Desk } from '../../core/desk/desk.ts';
import type { Handlers } from '../router.ts';

type DraftChannels =
  | 'drafts:list' | 'drafts:create' | 'drafts:rename' | 'drafts:discard' | 'drafts:changes'
  | 'drafts:addChanges' | 'drafts:removeChanges' | 'drafts:bulk';

/** Handlers for building drafts offline: every edit is stored before the reply. */
export function draftHandlers(desk: Desk): Pick<Handlers, DraftChannels> {
  const drafts = () => desk.workspace().drafts;
  return {
    'drafts:list': () => drafts().list(),
    'drafts:create': ({ name }) => drafts().create(name),
    'drafts:rename': ({ draftId, name }) => drafts().rename(draftId, name),
    'drafts:discard': ({ draftId }) => {
      drafts().discard(draftId);
      return { ok: true as const };
    },
    'drafts:changes': ({ draftId }) => drafts().entries(draftId).map(changeView),
    'drafts:addChanges': ({ draftId, changes }) => {
      const result = drafts().addChanges(draftId, changes);
      return { added: result.added, errors: [...result.errors] };
    },
    'drafts:removeChanges': ({ draftId, changeIds }) => {
      drafts().removeChanges(draftId, changeIds);
      return { ok: true as const };
    },
    'drafts:bulk': ({ draftId, target, selection, op }) => {
      const result = drafts().bulk(draftId, target, selection, op);
      return { changed: result.changed, matched: result.matched, refused: [...result.refused] };
    },
  };
}

/** A draft entry as the renderer shows it: what it is about and where it stands. */
export function changeView(entry: DraftEntry): ChangeView {
  const { kind, ...fields } = entry.change;
  const about = 'asset_id' in entry.change ? entry.change.asset_id : 'sku' in entry.change ? entry.change.sku : '';
  return {
    id: entry.target,
    kind,
    target: about,
    fields,
    status: entry.status === 'queued' || entry.status === 'sent' ? 'sending' : entry.status === 'dropped' ? 'done' : entry.status,
    error: entry.error?.message ?? null,
    updatedAt: entry.updatedAt,
  };
}
