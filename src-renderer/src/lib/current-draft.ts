import type { DraftSummary } from '../../../src-shared/contract.ts';

/**
 * Which draft the trader works in is remembered across restarts of the
 * window. The drafts themselves live in main's database; only this choice is
 * kept in the page's storage, which may be unavailable (then it is not kept).
 */
const CURRENT_KEY = 'desk.currentDraft';

export function readCurrentDraft(): string | null {
  try {
    return localStorage.getItem(CURRENT_KEY);
  } catch {
    return null;
  }
}

export function rememberCurrentDraft(id: string | null): void {
  try {
    if (id === null) localStorage.removeItem(CURRENT_KEY);
    else localStorage.setItem(CURRENT_KEY, id);
  } catch {
    // Storage may be unavailable; the draft itself lives in main regardless.
  }
}

/** The most recently changed draft: where edits go when none was chosen. */
export function newestDraft(list: readonly DraftSummary[]): DraftSummary | undefined {
  return [...list].sort((a, b) => b.updatedAt - a.updatedAt)[0];
}
