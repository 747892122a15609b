import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECK_PART, checkInParts } from '../../../src-main/core/api/list-check.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/** Runs the steps, counting the turns they yield. */
function run<T>(steps: Generator<void, T, void>): { result: T; turns: number } {
  let turns = 0;
  for (;;) {
    const next = steps.next();
    if (next.done) return { result: next.value, turns };
    turns++;
  }
}

describe('checkInParts', () => {
  const answer = Array.from({ length: 3 * CHECK_PART }, (_, i) => ({ id: String(i) }));

  for (const [what, schema] of [
    ['a list', z.array(z.object({ id: z.string() }))],
    ['a list built at its first use', lazySchema(() => z.array(z.object({ id: z.string() })))],
  ] as const) {
    it(`checks ${what} a part at a time, with the issue's path from its element`, () => {
      const good = run(checkInParts(schema, answer));
      expect(good.result).toEqual({ success: true, data: answer });
      expect(good.turns).toBe(2);
      const bad = run(checkInParts(schema, [...answer.slice(0, CHECK_PART + 1), { id: 7 }]));
      expect(bad.result.success).toBe(false);
      expect(bad.result.success ? [] : bad.result.issues.map((i) => i.path)).toEqual([[CHECK_PART + 1, 'id']]);
    });
  }

  it('checks a list with a rule of its own at once', () => {
    expect(run(checkInParts(z.array(z.object({ id: z.string() })).max(10_000), answer)).turns).toBe(0);
  });
});
