import { defineStore } from 'pinia';
import { csvFormat } from './settings.ts';
import type { CsvDialectChoice } from '../../../src-shared/csv-dialect.ts';
import { computed, ref, shallowRef, watch } from 'vue';
import type { ChangeInput, ChangeRow, ChannelOutput, CsvPreview, DraftReview, DraftsView } from '../../../src-shared/contract.ts';
import { textParts } from '../../../src-shared/csv-parts.ts';
import { call, onEvent } from '../bridge/api.ts';
import { coalesce } from '../lib/coalesce.ts';
import { fileParts } from '../lib/file-parts.ts';
import { createPagedRows } from '../lib/paged-rows.ts';
import { loadQuietly } from './guarded.ts';
import { useNoticesStore } from './notices.ts';

/** Which changes the review lists. */
export type ReviewShow = 'open' | 'failed' | 'unknown' | 'all';

/**
 * Drafts live in main's database, and main keeps which one is current (edits
 * go there). This store shows the list, the current draft's review summary
 * and one page of its changes at a time, and sends every edit to main.
 * Nothing here talks to the service.
 */
export const useDraftsStore = defineStore('drafts', () => {
  const notices = useNoticesStore();
  const view = shallowRef<DraftsView | null>(null);
  const review = shallowRef<DraftReview | null>(null);
  const show = ref<ReviewShow>('open');
  const kind = ref<string | null>(null);
  /** The review's item search (words in any order, as every table reads it); undefined: every change. */
  const text = ref<string | undefined>(undefined);
  /** Screens showing the review: main computes it (over 47,000 changes, a tenth of a second) only while one is. */
  let reviewers = 0;
  let started = false;

  const drafts = computed(() => view.value?.drafts ?? []);
  const currentId = computed(() => view.value?.currentId ?? null);
  const current = computed(() => view.value?.drafts.find((d) => d.id === currentId.value) ?? null);
  /** Changes still to send or resolve in the current draft. */
  const pendingCount = computed(() => current.value?.changeCount ?? 0);

  const rows = createPagedRows<ChangeRow>({
    pageSize: 100,
    async fetch(offset, limit) {
      const draftId = currentId.value;
      if (draftId === null) return { total: 0, rows: [] };
      return call('drafts:page', {
        draftId, show: show.value, offset, limit, ...(kind.value === null ? {} : { kind: kind.value }), ...(text.value === undefined ? {} : { text: text.value }),
      });
    },
    onError: (error) => notices.error(error),
  });

  // The list is small (a summary per draft): it is read again whenever a draft changes; the newest answer wins.
  const loadList = coalesce(async () => {
    const next = await call('drafts:list', {});
    if (view.value === null || next.stamp >= view.value.stamp) view.value = next;
  });
  const loadReview = coalesce(async () => {
    if (reviewers === 0) return;
    const id = currentId.value;
    review.value = id === null ? null : await call('drafts:review', { draftId: id });
    await rows.refresh();
  });

  /** A screen that shows the review says so while it is mounted; returns the function that says it stopped. */
  function watchReview(): () => void {
    reviewers += 1;
    loadQuietly(loadReview);
    return () => {
      reviewers -= 1;
    };
  }

  watch(currentId, () => {
    kind.value = null;
    loadQuietly(loadReview);
  });
  watch([show, kind, text], () => void rows.refresh());

  async function select(draftId: string): Promise<void> {
    await call('drafts:select', { draftId });
    await loadList();
  }

  async function create(name: string): Promise<void> {
    await call('drafts:create', { name });
    await loadList();
  }

  async function rename(draftId: string, name: string): Promise<void> {
    await call('drafts:rename', { draftId, name });
    await loadList();
  }

  async function discard(draftId: string): Promise<void> {
    await call('drafts:discard', { draftId });
    await loadList();
  }

  /** Into main's current draft (made on the spot when there is none); per-item errors come back for the form. */
  async function addChanges(changes: ChangeInput[]) {
    const result = await call('drafts:addChanges', { changes });
    await loadList();
    return result;
  }

  async function removeChanges(changeIds: string[]): Promise<void> {
    const id = currentId.value;
    if (id === null || changeIds.length === 0) return;
    await call('drafts:removeChanges', { draftId: id, changeIds });
  }

  /** Drops the changes the service refused from the current draft. */
  async function removeFailed(): Promise<void> {
    const id = currentId.value;
    if (id !== null) await call('drafts:removeFailed', { draftId: id });
  }

  const exportCsv = async (draftId: string) => (await call('drafts:exportCsv', { draftId, format: csvFormat() })).csv;
  /**
   * Sends a CSV file (a chosen file, or pasted text) to main a part at a
   * time, in order, each numbered, and answers main's preview of it; null when `signal`
   * stopped it first (the panel was closed). `onProgress` hears how much of
   * it main has read, from 0 to 1.
   */
  async function importCsv(
    kindOf: 'listings' | 'buyOrders' | 'draft',
    source: Blob | string,
    options: { onProgress?: (done: number) => void; signal?: AbortSignal; dialect?: CsvDialectChoice } = {},
  ): Promise<CsvPreview | null> {
    let upload: string | null = null;
    for await (const part of typeof source === 'string' ? textParts(source) : fileParts(source)) {
      if (options.signal?.aborted) return null;
      const { seq, text, last } = part;
      const answer: ChannelOutput<'drafts:importCsvPart'> = await call('drafts:importCsvPart', upload === null ? { kind: kindOf, seq, text, last, ...(options.dialect ? { dialect: options.dialect } : {}) } : { upload, seq, text, last });
      options.onProgress?.(part.done);
      if (answer.preview) return answer.preview;
      upload = answer.upload;
    }
    throw new Error('The file was sent without its last part');
  }
  const importCommit = (token: string) => call('drafts:importCommit', { token });

  function start(): void {
    if (started) return;
    started = true;
    onEvent('drafts:changed', ({ draftId }) => {
      void loadList().catch(() => undefined);
      if (draftId === null || draftId === currentId.value) void loadReview().catch(() => undefined);
    });
    loadQuietly(loadList);
  }

  return {
    drafts, currentId, current, pendingCount, review, rows, show, kind, text,
    loadList, loadReview, watchReview, select, create, rename, discard, addChanges, removeChanges, removeFailed,
    exportCsv, importCsv, importCommit, start,
  };
});
