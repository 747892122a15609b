import type { DeskErrorKind } from '../../../src-shared/errors.ts';
import type { Clock } from '../clock.ts';
import { storeFailure } from '../errors.ts';
import type { Job } from '../scheduler/index.ts';

/**
 * An apply that meets a full disk (or a disk's I/O error) pauses, neither
 * stopped nor failed: the journal step that could not be written (a batch
 * marked sent, an outcome, the end of the run) waits in memory and is tried
 * again on a backoff, which is the small write that finds out whether there
 * is room again. Meanwhile the job sends nothing new; a request already on
 * its way gets its outcome kept until it can be written. Once a step
 * succeeds the job resumes by itself, unless the trader paused or cancelled
 * it meanwhile. Nothing journaled is lost, and no create is sent twice: a
 * batch is sent only after "sent" is written.
 */
export interface StoreProblem {
  readonly kind: Extract<DeskErrorKind, 'disk_full' | 'io'>;
  readonly message: string;
}

export interface StorePause {
  /**
   * Runs a journal step. A full disk or an I/O error pauses the job and
   * tries the step again until it succeeds, `giveUp()` says to stop (the
   * step's error is thrown then), or the store closes. Other errors are
   * thrown as they are.
   */
  persist<T>(step: () => T, giveUp?: () => boolean): Promise<T>;
  /**
   * Before a new batch is journaled and sent: waits while a step waits for
   * room, so an answer that could not be written yet is never joined by more
   * requests in flight. Rejects when `giveUp()` says to stop.
   */
  clear(giveUp: () => boolean): Promise<void>;
  /** What the apply waits on; null while it does not. */
  problem(): StoreProblem | null;
}

export interface StorePauseDeps {
  readonly clock: Clock;
  /** The job to pause and resume (made after this guard, so asked for when needed). */
  readonly job: () => Pick<Job, 'pause' | 'resume' | 'progress'> | null;
  /** The store closed (the workspace is closing): a step cannot wait for room any more. */
  readonly closed: () => boolean;
  /** The problem appeared or went: the apply's progress says so. */
  readonly changed: () => void;
}

/** First wait before a step is tried again; doubled each time up to the most. */
export const STORE_RETRY_FIRST_MS = 500;
export const STORE_RETRY_MOST_MS = 15_000;

export function createStorePause(deps: StorePauseDeps): StorePause {
  let problem: StoreProblem | null = null;
  let waiting = 0;
  // Set when this guard paused the job, so only its own pause is lifted.
  let pausedJob = false;
  // A step that succeeded wakes the others at once rather than at their next try.
  let wake = new AbortController();

  function hold(failure: StoreProblem): void {
    const changed = problem?.kind !== failure.kind || problem.message !== failure.message;
    problem = failure;
    const job = deps.job();
    if (job && job.progress().state === 'running') {
      pausedJob = true;
      // The job's own progress event carries the problem (it was set first).
      job.pause();
      return;
    }
    if (changed) deps.changed();
  }

  function recovered(): void {
    wake.abort();
    wake = new AbortController();
    if (waiting > 0 || problem === null) return;
    problem = null;
    const job = deps.job();
    if (pausedJob && job?.progress().state === 'paused') {
      pausedJob = false;
      job.resume();
      return;
    }
    pausedJob = false;
    deps.changed();
  }

  async function persist<T>(step: () => T, giveUp: () => boolean = () => false): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let failure: ReturnType<typeof storeFailure>;
      try {
        const result = step();
        if (attempt > 0) {
          waiting -= 1;
          recovered();
        }
        return result;
      } catch (error) {
        failure = storeFailure(error);
        if (failure === null || deps.closed() || giveUp()) {
          if (attempt > 0) waiting -= 1;
          throw failure ?? error;
        }
      }
      if (attempt === 0) waiting += 1;
      hold({ kind: failure.kind as StoreProblem['kind'], message: failure.message });
      const wait = Math.min(STORE_RETRY_MOST_MS, STORE_RETRY_FIRST_MS * 2 ** attempt);
      await deps.clock.sleep(wait, wake.signal).catch(() => undefined);
    }
  }

  async function clear(giveUp: () => boolean): Promise<void> {
    while (problem !== null) {
      if (giveUp() || deps.closed()) throw new Error('stopped while waiting for the disk');
      await deps.clock.sleep(STORE_RETRY_MOST_MS, wake.signal).catch(() => undefined);
    }
  }

  return { persist, clear, problem: () => problem };
}
