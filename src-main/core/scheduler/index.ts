/** The request scheduler: every request the app makes goes through it. */
export { createScheduler, type SchedulerDeps } from './scheduler.ts';
export { estimateDurationMs, finishOffsetMs } from './estimate.ts';
export { packTasks } from './pack.ts';
export { LANE_GLOBAL_HEADROOM } from './rate-budget.ts';
export { LANES } from './types.ts';
export type {
  BatchOutcome,
  BatchTask,
  Job,
  JobOptions,
  JobProgress,
  JobState,
  Lane,
  RateScope,
  RequestSender,
  Scheduler,
  SchedulerState,
} from './types.ts';
