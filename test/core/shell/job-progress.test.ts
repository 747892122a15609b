import { describe, expect, it } from 'vitest';
import { type JobProgressView, jobProgressLine, taskbarProgress, timeLeft } from '../../../src-main/core/shell/job-progress.ts';

const job = (over: Partial<JobProgressView> = {}): JobProgressView => ({
  state: 'running', itemsTotal: 10_000, itemsDone: 1_200, itemsFailed: 0, itemsUnknown: 0, etaMs: 12 * 60_000, ...over,
});

describe('job progress presentation', () => {
  it('says how far a running apply got and how long is left', () => {
    expect(jobProgressLine(job())).toBe('Applying 1,200 of 10,000 items (12%), about 12 min left');
    expect(jobProgressLine(job({ etaMs: null }))).toBe('Applying 1,200 of 10,000 items (12%)');
    expect(jobProgressLine(job({ state: 'paused' }))).toBe('Apply paused at 1,200 of 10,000 items (12%)');
    expect(jobProgressLine(job({ state: 'cancelling' }))).toBe('Stopping apply at 1,200 of 10,000 items (12%)');
  });

  it('counts failed and unknown items as settled', () => {
    expect(jobProgressLine(job({ itemsDone: 100, itemsFailed: 50, itemsUnknown: 50, etaMs: null })))
      .toBe('Applying 200 of 10,000 items (2%)');
  });

  it('shows nothing once the job has ended', () => {
    for (const state of ['done', 'cancelled', 'stopped'] as const) {
      expect(jobProgressLine(job({ state }))).toBeNull();
      expect(taskbarProgress(job({ state }))).toEqual({ progress: -1, mode: 'none' });
    }
    expect(taskbarProgress(null)).toEqual({ progress: -1, mode: 'none' });
  });

  it('drives the taskbar bar, red when items failed, paused when paused', () => {
    expect(taskbarProgress(job())).toEqual({ progress: 0.12, mode: 'normal' });
    expect(taskbarProgress(job({ itemsUnknown: 1 })).mode).toBe('error');
    expect(taskbarProgress(job({ state: 'paused' })).mode).toBe('paused');
    expect(taskbarProgress(job({ itemsTotal: 0, itemsDone: 0 })).mode).toBe('indeterminate');
  });

  it('rounds the time left for a glance', () => {
    expect(timeLeft(20_000)).toBe('under a minute left');
    expect(timeLeft(60 * 60_000)).toBe('about 1 h left');
    expect(timeLeft(65 * 60_000)).toBe('about 1 h 5 min left');
  });
});
