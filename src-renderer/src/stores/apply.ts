import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { ApplyProgressView, UnknownOutcomeView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { guarded, loadQuietly } from './guarded.ts';

/**
 * The running (or last) apply job and the writes whose outcome is unknown.
 * Progress arrives as events; the buttons only ask main to change course.
 */
export const useApplyStore = defineStore('apply', () => {
  const progress = ref<ApplyProgressView | null>(null);
  const unknownOutcomes = ref<UnknownOutcomeView[]>([]);
  let started = false;

  const active = computed(() => {
    const state = progress.value?.state;
    return state === 'running' || state === 'paused' || state === 'cancelling';
  });

  async function load(): Promise<void> {
    const [p, u] = await Promise.all([call('apply:progress', {}), call('apply:unknownOutcomes', {})]);
    progress.value = p;
    unknownOutcomes.value = u;
  }

  /** Throws DeskError (e.g. nothing to apply, key rejected) for the caller to word. */
  async function apply(draftId: string): Promise<void> {
    progress.value = await call('drafts:apply', { draftId });
  }

  async function control(action: 'apply:pause' | 'apply:resume' | 'apply:cancel'): Promise<void> {
    const jobId = progress.value?.jobId;
    if (jobId !== undefined) await guarded(null, async () => (progress.value = await call(action, { jobId })));
  }

  const resolve = (id: string, choice: UnknownOutcomeView['choices'][number]['id']) =>
    guarded(null, async () => (unknownOutcomes.value = await call('apply:resolve', { id, choice })));

  function start(): void {
    if (started) return;
    started = true;
    onEvent('apply:progress', (p) => (progress.value = p));
    onEvent('apply:unknownOutcomes', (u) => (unknownOutcomes.value = u));
    loadQuietly(load);
  }

  return {
    progress, unknownOutcomes, active, load, apply,
    pause: () => control('apply:pause'),
    resume: () => control('apply:resume'),
    cancel: () => control('apply:cancel'),
    resolve, start,
  };
});
