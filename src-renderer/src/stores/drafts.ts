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
} from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { fieldsAfter } from '../lib/bulk-formula.ts';
import { buildOverlay, patchOverlay, type LocalPatch } from '../lib/draft-overlay.ts';
import { newestDraft, readCurrentDraft, rememberCurrentDraft } from '../lib/current-draft.ts';
import { formatStamp } from '../lib/time.ts';
import { loadQuietly } from './guarded.ts';

/**
 * Drafts live in main's database; this store knows which one the trader is
 * working in, mirrors its changes (to overlay the ledger tables) and sends
 * every edit into it. Nothing here talks to the service.
 */
export const useDraftsStore = defineStore('drafts', () => {
  const drafts = ref<DraftSummary[]>([]);
  const currentId = ref<string | null>(readCurrentDraft());
  const changes = shallowRef<readonly ChangeView[]>([]);
  const review = shallowRef<ReviewView | null>(null);
  /** Bulk edits shown before main's stored changes are read back (see bulk()). */
  const local = shallowRef<readonly Pending[]>([]);
  let started = false;

  const current = computed(() => drafts.value.find((d) => d.id === currentId.value) ?? null);
  const stored = computed(() => buildOverlay(changes.value));
  const overlay = computed(() => patchOverlay(stored.value, local.value));
  const pendingCount = computed(() => changes.value.filter((c) => c.status !== 'done').length);

  async function loadList(): Promise<void> {
    drafts.value = await call('drafts:list', {});
    if (currentId.value !== null && !drafts.value.some((d) => d.id === currentId.value)) {
      // The remembered draft was discarded or applied away: fall back to the newest.
      setCurrent(newestDraft(drafts.value)?.id ?? null);
    } else if (currentId.value === null && drafts.value.length > 0) {
      setCurrent(newestDraft(drafts.value)?.id ?? null);
    }
  }

  /**
   * Reads the current draft's changes. `pass` is the count of announcements
   * the read began after: local patches stored by then are in what it read,
   * and go in the same step, so the table never shows them missing.
   */
  async function loadChanges(pass?: number): Promise<void> {
    const id = currentId.value;
    showChanges(id === null ? [] : await call('drafts:changes', { draftId: id }));
    if (pass !== undefined && local.value.some((p) => p.covers !== null && p.covers <= pass)) {
      local.value = local.value.filter((p) => p.covers === null || p.covers > pass);
    }
  }

  /**
   * An empty list over an empty one is left alone: every ledger table
   * rebuilds its 50,000 rows when the overlay changes, for nothing.
   */
  function showChanges(list: readonly ChangeView[]): void {
    if (list.length === 0 && changes.value.length === 0) return;
    changes.value = Object.freeze(list);
  }

  async function load(): Promise<void> {
    await loadList();
    await loadChanges();
  }

  function setCurrent(id: string | null): void {
    currentId.value = id;
    rememberCurrentDraft(id);
  }

  async function select(id: string): Promise<void> {
    setCurrent(id);
    review.value = null;
    await loadChanges();
  }

  async function create(name: string): Promise<DraftSummary> {
    const draft = await call('drafts:create', { name });
    drafts.value = [...drafts.value, draft];
    // A new draft has no changes: no need to ask main (the first edit waits on this).
    setCurrent(draft.id);
    review.value = null;
    showChanges([]);
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
      setCurrent(newestDraft(drafts.value)?.id ?? null);
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

  /**
   * Puts a bulk operation over these rows (key, and the price the table
   * shows) into the draft. Their new values show at once as a local patch;
   * a refusal or an error takes it back. On success the draft is read back
   * without waiting for it: that read (~12 MB for 47,000 changes) is what a
   * trader would otherwise wait seconds for, and the patch already shows
   * what it will say. The read drops the patch when it lands.
   */
  async function bulk(target: 'listings' | 'buyOrders', rows: ReadonlyArray<{ key: string; price: number }>, op: BulkOp): Promise<BulkResult> {
    // One pass, no throwaway arrays: this runs over up to 50,000 rows between the click and the paint.
    const values = new Map<string, Record<string, number | string>>();
    const ids: string[] = [];
    // A price main will refuse is not worth showing for the time of a round trip.
    let refusable = false;
    for (const r of rows) {
      const v = fieldsAfter(r.price, op);
      if (typeof v.price === 'number' && v.price <= 0) refusable = true;
      values.set(r.key, v);
      ids.push(r.key);
    }
    const patch: Pending = { target, values, covers: null };
    if (!refusable) local.value = [...local.value, patch];
    const takeBack = () => {
      if (local.value.includes(patch)) local.value = local.value.filter((p) => p !== patch);
    };
    let result: BulkResult;
    const send = (draftId: string) => call('drafts:bulk', { draftId, target, selection: { ids }, op });
    replying++;
    try {
      // Into the current draft it is sent at once, before the table repaints
      // with the patch, so main works while the page draws; into a new one
      // once main has made it (a round trip or more).
      result = await (currentId.value !== null ? send(currentId.value) : ensureDraft().then(send));
    } catch (err) {
      takeBack();
      replying--;
      releaseHeld();
      throw err;
    }
    replying--;
    if (result.refused.length > 0) {
      takeBack();
      releaseHeld();
      return result;
    }
    // Main announced the change before replying: a read that began after
    // that announcement holds the patch.
    patch.covers = announced;
    loadQuietly(refreshCurrent);
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
  // A bulk edit on its way is announced just before its reply, which reads
  // the draft back anyway: a reload asked for meanwhile waits for the reply
  // (held) instead of racing it for main's attention with a 12 MB read.
  let replying = 0;
  let held = false;

  function refreshCurrent(): Promise<void> {
    held = false;
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
        await Promise.all([loadList(), loadChanges(passCovers)]);
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
    if (replying > 0) {
      held = true;
      return;
    }
    scheduleReload();
  }

  /** A reply that reads nothing back (a refusal, an error) lets a held reload go. */
  function releaseHeld(): void {
    if (!held || replying > 0) return;
    held = false;
    scheduleReload();
  }

  function scheduleReload(): void {
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

/**
 * A local patch, and the announcement count a read must begin after to hold
 * it (null until main replied). It is not tied to a draft: the first read
 * after the reply drops it, whichever draft is current by then.
 */
interface Pending extends LocalPatch {
  covers: number | null;
}
