import { describe, expect, it } from 'vitest';
import { createReloadBudget } from '../../../src-main/core/shell/renderer-crash.ts';

describe('createReloadBudget', () => {
  it('allows a few reloads in a minute, then refuses until the minute has passed', () => {
    let now = 0;
    const budget = createReloadBudget({ now: () => now, max: 3, withinMs: 60_000 });
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now = 59_999;
    expect(budget.take()).toBe(false);
    now = 60_000;
    expect(budget.take()).toBe(true);
  });
});
