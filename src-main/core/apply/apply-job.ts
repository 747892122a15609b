import type { ApplyService } from './apply-draft.ts';
import type { ApplyProgress } from './apply-run.ts';
import type { DraftService } from '../drafts/draft-service.ts';
import { createEmitter, type Unsubscribe } from '../events.ts';

/**
 * The one owner of "the apply job" the screens, the tray and the taskbar
 * show: the running job, or the last one to have run while its draft still
 * exists. Every change is pushed as a whole snapshot; a job that reached a
 * terminal state (done, cancelled, stopped) stays as it ended, and leaves
 * with its draft.
 */
export interface ApplyJobTracker {
  current(): ApplyProgress | null;
  /** Starts applying a draft (or finds its running apply) and announces the job at once. */
  start(draftId: string, options?: Parameters<ApplyService['apply']>[1]): ApplyProgress;
  on(event: 'changed', listener: (job: ApplyProgress | null) => void): Unsubscribe;
  dispose(): void;
}

export function trackApplyJob(
  apply: Pick<ApplyService, 'on' | 'handles' | 'apply'>,
  drafts: Pick<DraftService, 'on'>,
  draftExists: (draftId: string) => boolean,
): ApplyJobTracker {
  const emitter = createEmitter<{ changed: ApplyProgress | null }>();
  let job: ApplyProgress | null = apply.handles().at(-1)?.progress() ?? null;
  const set = (next: ApplyProgress | null) => {
    job = next;
    emitter.emit('changed', job);
  };
  const offs = [
    apply.on('progress', (p) => set(p)),
    drafts.on('changed', ({ draftId }) => {
      if (job !== null && job.draftId === draftId && !draftExists(draftId)) set(null);
    }),
  ];
  return {
    // A job resumed at start has not reported yet: the running one is the truth until it does.
    current: () => apply.handles().at(-1)?.progress() ?? job,
    start(draftId, options) {
      const handle = apply.apply(draftId, options);
      set(handle.progress());
      return handle.progress();
    },
    on: (event, listener) => emitter.on(event, listener),
    dispose() {
      for (const off of offs) off();
    },
  };
}
