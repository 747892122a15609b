import { z } from 'zod';
import type { DraftRow } from '../store/drafts-repo.ts';
import type { SettingsRepo } from '../store/settings-repo.ts';

/**
 * Which draft the trader works in. Main keeps it (in the workspace's own
 * database, so the sandbox and the live profile each have theirs): every
 * screen and every edit agree on it, and it survives a restart.
 */
const KEY = 'drafts.current';
/** Built once: every Listings page asks which draft is current. */
const draftId = z.string().nullable();

export interface CurrentDraft {
  get(): string | null;
  set(draftId: string | null): void;
}

export function createCurrentDraft(settings: SettingsRepo, exists: (draftId: string) => boolean): CurrentDraft {
  return {
    get() {
      const id = settings.get(KEY, draftId, null);
      return id !== null && exists(id) ? id : null;
    },
    set(draftId) {
      if (draftId === null) settings.delete(KEY);
      else settings.set(KEY, draftId);
    },
  };
}

/** The most recently changed draft: where edits go after the current one is discarded. */
export function newestDraft(list: readonly DraftRow[]): string | null {
  let best: DraftRow | null = null;
  for (const d of list) if (best === null || d.updated_at > best.updated_at) best = d;
  return best?.draft_id ?? null;
}
