import { describe, expect, it } from 'vitest';
import { coalesce } from '../../../src-renderer/src/lib/coalesce.ts';
import { flush } from '../fake-api.ts';

describe('coalesce', () => {
  it('makes one more run for any number of asks while one runs', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const run = coalesce(async () => {
      runs += 1;
      await new Promise<void>((r) => (release = r));
    });
    void run();
    void run();
    void run();
    release();
    await flush();
    release();
    await flush();
    expect(runs).toBe(2);
  });

  it('runs again for an ask that comes just as a run ends, never drops it', async () => {
    let runs = 0;
    const run = coalesce(async () => void (runs += 1));
    void run();
    // Queued behind the run's last step: the ask lands after the run saw no ask, before its promise settled.
    queueMicrotask(() => void run());
    await flush();
    expect(runs).toBe(2);
  });
});
