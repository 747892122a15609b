import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { GuardConfirmation, RelistResultView, UndoResultView, UnknownOutcomeView } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/** States in which an apply still runs (the buttons steer it). */
const LIVE = new Set(['running', 'paused', 'cancelling']);

/**
 * The apply job main holds (running, or the last one of a draft that still
 * exists) and the writes whose outcome is unknown, as main last said them.
 * The buttons only ask main to change course; what the screen shows is
 * main's answer or its next push, whichever is newer.
 */
export const useApplyStore = defineStore('apply', () => {
  const state = createMirror(() => call('apply:state', {}), 'apply:state');
  const outcomes = createMirror(() => call('apply:unknownOutcomes', {}), 'apply:unknownOutcomes');
  let started = false;

  const job = computed(() => state.value.value?.job ?? null);
  const active = computed(() => job.value !== null && LIVE.has(job.value.state));
  const unknownOutcomes = computed(() => outcomes.value.value?.outcomes ?? []);

  /**
   * Throws DeskError (nothing to apply, automation off, key rejected, marked prices not confirmed) for the
   * caller to word. `confirmGuard`: the marked price changes the trader confirmed (see PriceGuardDialog).
   */
  async function apply(draftId: string, confirmGuard?: GuardConfirmation): Promise<void> {
    state.accept(await call('drafts:apply', confirmGuard ? { draftId, confirmGuard } : { draftId }));
  }

  async function control(action: 'apply:pause' | 'apply:resume' | 'apply:cancel'): Promise<void> {
    const jobId = job.value?.jobId;
    if (jobId !== undefined) await guarded(null, async () => void state.accept(await call(action, { jobId })));
  }

  /** What the last undo made (its draft is the current one now), until the trader closes it. */
  const undone = shallowRef<UndoResultView | null>(null);

  /** Asks main for a draft that takes back an ended apply; throws DeskError for the caller to word. */
  async function undo(runId: number): Promise<UndoResultView> {
    const result = await call('apply:undo', { runId });
    undone.value = result;
    relisted.value = null;
    return result;
  }

  /** What the last "list these again" made (its draft is the current one now), until the trader closes it. */
  const relisted = shallowRef<RelistResultView | null>(null);

  /** Asks main for a draft that lists again what an ended apply deleted; throws DeskError for the caller to word. */
  async function relist(runId: number): Promise<RelistResultView> {
    const result = await call('apply:relistDeleted', { runId });
    relisted.value = result;
    return result;
  }

  const resolve = (id: string, choice: UnknownOutcomeView['choices'][number]['id']) =>
    guarded(null, async () => void outcomes.accept(await call('apply:resolve', { id, choice })));

  function start(): void {
    if (started) return;
    started = true;
    state.follow();
    outcomes.follow();
  }

  return {
    job, active, unknownOutcomes, apply, undone, undo, relisted, relist,
    closeUndone: () => void (undone.value = null),
    closeRelisted: () => void (relisted.value = null),
    pause: () => control('apply:pause'),
    resume: () => control('apply:resume'),
    cancel: () => control('apply:cancel'),
    resolve, start,
  };
});
