import type { JobProgress } from '../scheduler/types.ts';
import { groupThousands } from '../../../src-shared/money.ts';

/**
 * How a running bulk apply is shown outside the window: one line of words for
 * the tray (tooltip and menu) and a fraction for the taskbar or dock. Only
 * these fields of the scheduler's JobProgress are read, so the renderer's view
 * of it fits too.
 */
export type JobProgressView = Readonly<Pick<JobProgress, 'state' | 'itemsTotal' | 'itemsDone' | 'itemsFailed' | 'itemsUnknown' | 'etaMs'>>;

/** Whether the job still occupies the tray and taskbar. */
export function jobIsActive(job: JobProgressView | null): job is JobProgressView {
  return job !== null && (job.state === 'running' || job.state === 'paused' || job.state === 'cancelling');
}

/** Items settled either way: a failed or unknown item is no longer in flight. */
function itemsSettled(job: JobProgressView): number {
  return job.itemsDone + job.itemsFailed + job.itemsUnknown;
}

/** The share of items settled, 0..1. */
export function jobFraction(job: JobProgressView): number {
  if (job.itemsTotal <= 0) return 0;
  return Math.min(1, Math.max(0, itemsSettled(job) / job.itemsTotal));
}

/** "Applying 1,200 of 10,000 items (12%), about 12 min left", or null when no job runs. */
export function jobProgressLine(job: JobProgressView | null): string | null {
  if (!jobIsActive(job)) return null;
  const counts = `${count(itemsSettled(job))} of ${count(job.itemsTotal)} items (${Math.floor(jobFraction(job) * 100)}%)`;
  if (job.state === 'paused') return `Apply paused at ${counts}`;
  if (job.state === 'cancelling') return `Stopping apply at ${counts}`;
  return job.etaMs === null ? `Applying ${counts}` : `Applying ${counts}, ${timeLeft(job.etaMs)}`;
}

export type TaskbarMode = 'none' | 'normal' | 'paused' | 'error' | 'indeterminate';

/**
 * The value for the taskbar or dock progress bar: -1 removes it. A job with
 * failed or unknown items turns it to the error colour (Windows), so the
 * trader sees from the taskbar that something needs a look.
 */
export function taskbarProgress(job: JobProgressView | null): { progress: number; mode: TaskbarMode } {
  if (!jobIsActive(job)) return { progress: -1, mode: 'none' };
  if (job.itemsTotal <= 0) return { progress: 2, mode: 'indeterminate' };
  const mode: TaskbarMode = job.state === 'paused' ? 'paused' : job.itemsFailed + job.itemsUnknown > 0 ? 'error' : 'normal';
  return { progress: jobFraction(job), mode };
}

function count(n: number): string {
  return groupThousands(n);
}

/** Rounded for a glance: the ETA itself is an estimate. */
export function timeLeft(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute left';
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}
