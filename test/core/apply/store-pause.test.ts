import { describe, expect, it } from 'vitest';
import { createStorePause } from '../../../src-main/core/apply/store-pause.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { DomainError } from '../../../src-main/core/errors.ts';
import type { Job, JobState } from '../../../src-main/core/scheduler/index.ts';

/** A job's pause and resume as the guard sees them, recording each call. */
function fakeJob() {
  let state: JobState = 'running';
  const calls: string[] = [];
  return {
    calls,
    set: (next: JobState) => (state = next),
    job: {
      progress: () => ({ state }) as ReturnType<Job['progress']>,
      pause: () => {
        calls.push('pause');
        if (state === 'running') state = 'paused';
      },
      resume: () => {
        calls.push('resume');
        if (state === 'paused') state = 'running';
      },
    },
  };
}

const full = () => new DomainError('disk_full', 'The disk is full, so this was not saved');
const clock = scaledClock(10_000);

/** A step that fails with a full disk `times` times, then returns 'ok'. */
function failing(times: number) {
  let left = times;
  return () => {
    if (left-- > 0) throw full();
    return 'ok';
  };
}

describe('pausing an apply on a full disk', () => {
  it('pauses the job, tries the step again until it succeeds, then resumes it', async () => {
    const f = fakeJob();
    let changes = 0;
    const guard = createStorePause({ clock, job: () => f.job, closed: () => false, changed: () => (changes += 1) });
    const result = guard.persist(failing(3));
    expect(guard.problem()).toMatchObject({ kind: 'disk_full' });
    expect(f.job.progress().state).toBe('paused');
    await expect(result).resolves.toBe('ok');
    expect(guard.problem()).toBeNull();
    expect(f.calls).toEqual(['pause', 'resume']);
  });

  it('does not resume a job the trader paused or cancelled meanwhile, and says the problem went', async () => {
    const f = fakeJob();
    f.set('paused');
    let changes = 0;
    const guard = createStorePause({ clock, job: () => f.job, closed: () => false, changed: () => (changes += 1) });
    await guard.persist(failing(2));
    expect(f.calls).toEqual([]);
    expect(f.job.progress().state).toBe('paused');
    // Once when the problem appeared, once when it went.
    expect(changes).toBe(2);
  });

  it('resumes only when every waiting step is written, and new sends wait until then', async () => {
    const f = fakeJob();
    const guard = createStorePause({ clock, job: () => f.job, closed: () => false, changed: () => undefined });
    const order: string[] = [];
    const a = guard.persist(failing(1)).then(() => order.push('a'));
    const b = guard.persist(failing(6)).then(() => order.push('b'));
    const send = guard.clear(() => false).then(() => order.push('send'));
    await Promise.all([a, b, send]);
    expect(order).toEqual(['a', 'b', 'send']);
    expect(f.calls).toEqual(['pause', 'resume']);
  });

  it('gives up when told to or when the store closes, and throws other errors at once', async () => {
    const f = fakeJob();
    let closed = false;
    const guard = createStorePause({ clock, job: () => f.job, closed: () => closed, changed: () => undefined });
    let quitting = false;
    const quit = guard.persist(failing(1_000), () => quitting);
    quitting = true;
    await expect(quit).rejects.toMatchObject({ kind: 'disk_full' });
    const close = guard.persist(failing(1_000));
    closed = true;
    await expect(close).rejects.toMatchObject({ kind: 'disk_full' });
    await expect(guard.persist(() => {
      throw new Error('a bug');
    })).rejects.toThrow('a bug');
  });
});
