import { describe, expect, it, vi } from 'vitest';
import { createUpdateController, type UpdateSource } from '../../../src-main/core/shell/update-controller.ts';
import { UpdateRefused } from '../../../src-main/core/shell/update-policy.ts';
import { createVirtualClock } from '../scheduler/support/virtual-clock.ts';

const HOUR = 3_600_000;

function fakeSource(versions: Array<string | null>, download: () => Promise<void> = async () => undefined) {
  const source: UpdateSource & { checks: number } = {
    checks: 0,
    async check() {
      source.checks++;
      return versions.shift() ?? null;
    },
    async download(onProgress) {
      onProgress(50);
      await download();
    },
  };
  return source;
}

function controller(source: UpdateSource | null, over: { enabled?: () => boolean; applyRunning?: () => boolean; checkDeadlineMs?: number } = {}) {
  const clock = createVirtualClock();
  const restart = vi.fn();
  const views: string[] = [];
  const c = createUpdateController({
    source, clock, restart, enabled: over.enabled ?? (() => true), applyRunning: over.applyRunning ?? (() => false),
    onChange: (v) => views.push(v.state), firstCheckMs: 30_000, intervalMs: 4 * HOUR,
    ...(over.checkDeadlineMs === undefined ? {} : { checkDeadlineMs: over.checkDeadlineMs }),
  });
  return { c, clock, restart, views };
}

describe('createUpdateController', () => {
  it('checks shortly after start and every four hours, and downloads what it finds', async () => {
    const source = fakeSource([null, null, '0.2.0']);
    const { c, clock, views } = controller(source);
    c.refresh();
    await clock.advance(29_000);
    expect(source.checks).toBe(0);
    await clock.advance(1_000);
    expect(source.checks).toBe(1);
    expect(c.view()).toMatchObject({ state: 'idle', checkedAt: clock.now() });
    await clock.advance(4 * HOUR);
    expect(source.checks).toBe(2);
    await clock.advance(4 * HOUR);
    expect(c.view()).toMatchObject({ state: 'ready', version: '0.2.0', percent: 100 });
    expect(views).toContain('downloading');
    // Ready stays ready: no more downloads of the same update.
    await clock.advance(4 * HOUR);
    expect(source.checks).toBe(3);
  });

  it('does nothing when turned off, and says so; turned on again, it checks', async () => {
    let enabled = false;
    const source = fakeSource([]);
    const { c, clock } = controller(source, { enabled: () => enabled });
    c.refresh();
    await clock.advance(24 * HOUR);
    expect(source.checks).toBe(0);
    expect(c.view()).toMatchObject({ state: 'off', message: 'Automatic updates are off.' });
    enabled = true;
    c.refresh();
    await clock.advance(30_000);
    expect(source.checks).toBe(1);
  });

  it('shows a failed download as an error and is not ready', async () => {
    const source = fakeSource(['0.2.0'], async () => { throw new Error('socket hang up'); });
    const { c } = controller(source);
    expect(await c.checkNow()).toMatchObject({ state: 'error', message: 'socket hang up', version: '0.2.0' });
    expect(c.restartToUpdate().state).toBe('error');
  });

  it('shows a refused update as refused, with the sentence for the trader, and is not ready', async () => {
    const source = fakeSource(['0.2.0'], async () => { throw new UpdateRefused(null, 'it carries no signature from the publisher.', 'no .sig'); });
    const { c, restart } = controller(source);
    expect(await c.checkNow()).toMatchObject({ state: 'refused', message: 'it carries no signature from the publisher.', version: '0.2.0', percent: null });
    expect(c.restartToUpdate().state).toBe('refused');
    expect(restart).not.toHaveBeenCalled();
  });

  it('names the refused version when the check itself refuses one (a downgrade)', async () => {
    const source: UpdateSource = {
      check: async () => { throw new UpdateRefused('0.0.9', 'it is older than the installed version 0.1.0.', 'downgrade'); },
      download: async () => undefined,
    };
    const { c } = controller(source);
    expect(await c.checkNow()).toMatchObject({ state: 'refused', version: '0.0.9', message: 'it is older than the installed version 0.1.0.' });
  });

  it('ends a check that outlasts its deadline: the source is told to stop, and the view says why', async () => {
    let told: unknown = null;
    // A feed that never finishes answering, until the check's signal ends it.
    const source: UpdateSource = {
      check: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => { told = signal.reason; reject(signal.reason as Error); })),
      download: async () => undefined,
    };
    const { c } = controller(source, { checkDeadlineMs: 50 });
    const view = await c.checkNow();
    expect(view).toMatchObject({ state: 'error', version: null, percent: null });
    expect(view.message).toBe('the update feed did not answer in full within 50 ms, so the check was stopped.');
    expect((told as Error).message).toBe(view.message);
  });

  it('ends a check at its deadline even when the source ignores the signal', async () => {
    const source: UpdateSource = { check: () => new Promise(() => undefined), download: async () => undefined };
    const { c } = controller(source, { checkDeadlineMs: 50 });
    expect(await c.checkNow()).toMatchObject({ state: 'error', message: expect.stringMatching(/^the update feed did not answer in full within 50 ms/) });
    // The next check runs: the stuck one no longer holds the controller.
    expect((await c.checkNow()).state).toBe('error');
  });

  it('never restarts while an apply runs: the restart waits for the apply to end', async () => {
    let applying = true;
    const { c, restart } = controller(fakeSource(['0.2.0']), { applyRunning: () => applying });
    await c.checkNow();
    expect(c.restartToUpdate()).toMatchObject({ state: 'ready', restartPending: true });
    c.applyEnded();
    expect(restart).not.toHaveBeenCalled();
    applying = false;
    c.applyEnded();
    expect(restart).toHaveBeenCalledOnce();
    c.applyEnded();
    expect(restart).toHaveBeenCalledOnce();
  });

  it('says why there are no updates in a copy that cannot update itself', () => {
    const { c } = controller(null);
    c.refresh();
    expect(c.view()).toMatchObject({ state: 'off', message: 'Updates are not available in this copy.' });
  });
});
