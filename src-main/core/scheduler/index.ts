/** The request scheduler: every request the app makes goes through it. */
export { createScheduler, type SchedulerDeps } from './scheduler.ts';
export { estimateDurationMs, finishOffsetMs } from './estimate.ts';
export { packTasks } from './pack.ts';
export { LANE_GLOBAL_HEADROOM } from './rate-budget.ts';
export { INTERACTIVE_DEADLINE_MS, LANES } from './types.ts';
export { createRetryingRead, type ReadPhase, type ReadState, type RetryingRead } from './retrying-read.ts';
export type {
  BatchOutcome,
  BatchTask,
  Job,
  JobOptions,
  JobProgress,
  JobState,
  Lane,
  RateScope,
  OutcomeFollowUp,
  RequestOptions,
  RequestSender,
  Scheduler,
  SchedulerState,
} from './types.ts';
