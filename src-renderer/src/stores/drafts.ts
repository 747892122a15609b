import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  BulkOp,
  BulkResult,
  ChangeInput,
  ChannelOutput,
  ChangeView,
  CsvPreview,
  DraftSummary,
  ReviewView,
} from '../../../src-preload/contract.ts';
import { call, onEvent } from '../api.ts';
import { buildOverlay } from '../lib/draft-overlay.ts';
import { formatStamp } from '../lib/time.ts';
import { loadQuietly } from './guarded.ts';

const CURRENT_KEY = 'desk.currentDraft';

/**
 * Drafts live in main's database; this store knows which one the trader is
 * working in, mirrors its changes (to overlay the ledger tables) and sends
 * every edit into it. Nothing here talks to the service.
 */
export const useDraftsStore = defineStore('drafts', () => {
  const drafts = ref<DraftSummary[]>([]);
  const currentId = ref<string | null>(readCurrent());
  const changes = shallowRef<readonly ChangeView[]>([]);
  const review = shallowRef<ReviewView | null>(null);
  let started = false;

  const current = computed(() => drafts.value.find((d) => d.id === currentId.value) ?? null);
  const overlay = computed(() => buildOverlay(changes.value));
  const pendingCount = computed(() => changes.value.filter((c) => c.status !== 'done').length);

  async function loadList(): Promise<void> {
    drafts.value = await call('drafts:list', {});
    if (currentId.value !== null && !drafts.value.some((d) => d.id === currentId.value)) {
      // The remembered draft was discarded or applied away: fall back to the newest.
      setCurrent(newest(drafts.value)?.id ?? null);
    } else if (currentId.value === null && drafts.value.length > 0) {
      setCurrent(newest(drafts.value)?.id ?? null);
    }
  }

  async function loadChanges(): Promise<void> {
    const id = currentId.value;
    changes.value = id === null ? [] : Object.freeze(await call('drafts:changes', { draftId: id }));
  }

  async function load(): Promise<void> {
    await loadList();
    await loadChanges();
  }

  function setCurrent(id: string | null): void {
    currentId.value = id;
    try {
      if (id === null) localStorage.removeItem(CURRENT_KEY);
      else localStorage.setItem(CURRENT_KEY, id);
    } catch {
      // Storage may be unavailable; the draft itself lives in main regardless.
    }
  }

  async function select(id: string): Promise<void> {
    setCurrent(id);
    review.value = null;
    await loadChanges();
  }

  async function create(name: string): Promise<DraftSummary> {
    const draft = await call('drafts:create', { name });
    drafts.value = [...drafts.value, draft];
    await select(draft.id);
    return draft;
  }

  /** The draft edits go into: the current one, or a new one made on the spot. */
  async function ensureDraft(): Promise<string> {
    if (currentId.value !== null) return currentId.value;
    return (await create(`Draft ${formatStamp(Date.now()).slice(0, 16)}`)).id;
  }

  async function rename(draftId: string, name: string): Promise<void> {
    const updated = await call('drafts:rename', { draftId, name });
    drafts.value = drafts.value.map((d) => (d.id === draftId ? updated : d));
  }

  async function discard(draftId: string): Promise<void> {
    await call('drafts:discard', { draftId });
    drafts.value = drafts.value.filter((d) => d.id !== draftId);
    if (currentId.value === draftId) {
      setCurrent(newest(drafts.value)?.id ?? null);
      review.value = null;
      await loadChanges();
    }
  }

  /** Adds changes to the current draft; returns per-item errors for the form to show. */
  async function addChanges(list: ChangeInput[]): Promise<ChannelOutput<'drafts:addChanges'>> {
    const draftId = await ensureDraft();
    const result = await call('drafts:addChanges', { draftId, changes: list });
    await refreshCurrent();
    return result;
  }

  async function bulk(target: 'listings' | 'buyOrders', ids: string[], op: BulkOp): Promise<BulkResult> {
    const draftId = await ensureDraft();
    const result = await call('drafts:bulk', { draftId, target, selection: { ids }, op });
    await refreshCurrent();
    return result;
  }

  async function removeChanges(changeIds: string[]): Promise<void> {
    const id = currentId.value;
    if (id === null || changeIds.length === 0) return;
    await call('drafts:removeChanges', { draftId: id, changeIds });
    await refreshCurrent();
  }

  async function loadReview(): Promise<void> {
    const id = currentId.value;
    review.value = id === null ? null : await call('drafts:review', { draftId: id });
  }

  async function exportCsv(draftId: string): Promise<string> {
    return (await call('drafts:exportCsv', { draftId })).csv;
  }

  async function importCsv(kind: 'listings' | 'buyOrders' | 'draft', csv: string): Promise<CsvPreview> {
    const draftId = await ensureDraft();
    return call('drafts:importCsv', { draftId, kind, csv });
  }

  async function importCommit(token: string): Promise<number> {
    const { imported } = await call('drafts:importCommit', { token });
    await refreshCurrent();
    return imported;
  }

  // One reload at a time. Main announces each stored change (drafts:changed)
  // before it replies, so a pass that began after the latest announcement
  // already reads everything announced: the store's own action then waits
  // for it instead of loading again. An announcement that arrives during a
  // pass asks for one more. (At 50,000 changes, a second reload is what a
  // trader feels.)
  let inFlight: Promise<void> | null = null;
  let again = false;
  let queued: ReturnType<typeof setTimeout> | null = null;
  let announced = 0;
  let passCovers = -1;

  function refreshCurrent(): Promise<void> {
    if (queued !== null) {
      clearTimeout(queued);
      queued = null;
    }
    if (inFlight) {
      if (passCovers < announced) again = true;
      return inFlight;
    }
    inFlight = (async () => {
      do {
        again = false;
        passCovers = announced;
        await Promise.all([loadList(), loadChanges()]);
        if (review.value !== null) await loadReview();
      } while (again);
    })().finally(() => (inFlight = null));
    return inFlight;
  }

  /** A burst of drafts:changed events (an apply marks batches done) becomes one reload. */
  function queueReload(): void {
    announced++;
    if (inFlight) {
      again = true;
      return;
    }
    queued ??= setTimeout(() => {
      queued = null;
      loadQuietly(refreshCurrent);
    }, 50);
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('drafts:changed', () => queueReload());
    loadQuietly(load);
  }

  return {
    drafts, currentId, current, changes, overlay, pendingCount, review,
    load, select, create, ensureDraft, rename, discard, addChanges, bulk, removeChanges,
    loadReview, exportCsv, importCsv, importCommit, start,
  };
});

function readCurrent(): string | null {
  try {
    return localStorage.getItem(CURRENT_KEY);
  } catch {
    return null;
  }
}

function newest(list: readonly DraftSummary[]): DraftSummary | undefined {
  return [...list].sort((a, b) => b.updatedAt - a.updatedAt)[0];
}
