import type { Ref } from 'vue';
import type { ErrorView } from '../../../src-shared/contract.ts';
import { errorViewOf } from '../bridge/api.ts';
import { useNoticesStore } from './notices.ts';

/**
 * Runs an action that talks to main with a busy flag up for its duration; a
 * failure becomes a worded notice instead of an unhandled rejection. Returns
 * whether the action succeeded, for callers that close a form on success.
 */
export async function guarded(busy: Ref<boolean> | null, work: () => Promise<unknown>): Promise<boolean> {
  if (busy) busy.value = true;
  try {
    await work();
    return true;
  } catch (err) {
    useNoticesStore().error(err);
    return false;
  } finally {
    if (busy) busy.value = false;
  }
}

/** Loads a store's first state without letting a failure go unheard. */
export function loadQuietly(load: () => Promise<unknown>): void {
  void load().catch((err: unknown) => useNoticesStore().error(err));
}

/**
 * Runs a store action and hands back its failure as the ErrorView the
 * screen words beside what caused it (null when it succeeded). Never
 * rejects: what main refused is a value here, as it is over the bridge.
 */
export async function failureOf(work: () => Promise<unknown>): Promise<ErrorView | null> {
  try {
    await work();
    return null;
  } catch (err) {
    return errorViewOf(err);
  }
}
