import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { ErrorView } from '../../../src-shared/contract.ts';
import { failureOf } from '../stores/guarded.ts';

/**
 * One action the trader started from a card (beat now, refresh, test the
 * key, save a setting): up while it runs, and its failure kept beside the
 * button that caused it, with the action at hand to try again, rather than
 * a notice in a corner. A new run clears the last failure.
 */
export interface Attempt {
  readonly running: Readonly<Ref<boolean>>;
  readonly failure: Readonly<ShallowRef<ErrorView | null>>;
  /** Runs `work`; true when it succeeded. Never rejects. */
  run(work: () => Promise<unknown>): Promise<boolean>;
  /** Runs the last work again. */
  retry(): Promise<boolean>;
  /** Forgets the failure (the trader dismissed it or changed what it was about). */
  clear(): void;
}

export function useAttempt(): Attempt {
  const running = ref(false);
  const failure = shallowRef<ErrorView | null>(null);
  let last: (() => Promise<unknown>) | null = null;

  async function run(work: () => Promise<unknown>): Promise<boolean> {
    last = work;
    running.value = true;
    failure.value = null;
    failure.value = await failureOf(work);
    running.value = false;
    return failure.value === null;
  }

  return {
    running,
    failure,
    run,
    retry: () => (last ? run(last) : Promise.resolve(false)),
    clear: () => {
      failure.value = null;
    },
  };
}
