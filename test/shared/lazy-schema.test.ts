import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../src-shared/lazy-schema.ts';
import { channels } from '../../src-shared/contract.ts';

describe('lazySchema', () => {
  it('builds its schema at the first parse, once', () => {
    let built = 0;
    const row = lazySchema(() => {
      built++;
      return z.object({ id: z.string(), count: z.number().int() });
    });
    const list = z.array(row);
    expect(built).toBe(0);
    expect(list.parse([{ id: 'a', count: 1 }])).toEqual([{ id: 'a', count: 1 }]);
    expect(row.safeParse({ id: 'b', count: 1.5 }).success).toBe(false);
    expect(built).toBe(1);
  });

  it('keeps what the built schema says of a key: optional, defaulted, refused', () => {
    const shape = z.object({
      note: lazySchema(() => z.string().max(3).optional()),
      state: lazySchema(() => z.enum(['on', 'off']).default('off')),
    });
    expect(shape.parse({})).toEqual({ state: 'off' });
    const refused = shape.safeParse({ note: 'longer' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['note']);
  });

  it('is what the contract holds for the views it answers with: parsed, not built, at load', () => {
    const review = channels['drafts:review'].output;
    expect(review).toBeInstanceOf(z.ZodLazy);
    expect(review.safeParse({}).success).toBe(false);
  });
});
