import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRow, parseRows, sqlBool } from '../../../src-main/core/store/sql.ts';

/**
 * A schema's first rows are read on zod's plain path and the rest on the
 * path zod compiles for it: both read a row the same, and both name the
 * table of a row that does not fit.
 */
describe('parseRow', () => {
  const schema = z.object({ asset_id: z.string(), price: z.number().int().nullable(), automated: sqlBool });
  const row = (i: number) => ({ asset_id: `a${i}`, price: i % 3 === 0 ? null : i * 100, automated: i % 2 });
  const read = (i: number) => ({ asset_id: `a${i}`, price: i % 3 === 0 ? null : i * 100, automated: i % 2 === 1 });

  it('reads the first rows and those after them alike', () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(i));
    expect(parseRows('listings', schema, rows)).toEqual(rows.map((_, i) => read(i)));
  });

  it('names the table of a row that does not fit, early and late alike', () => {
    const own = z.object({ id: z.number().int() });
    const refusal = () => {
      try {
        parseRow('journal', own, { id: 'x' });
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'read';
    };
    const early = refusal();
    expect(early).toMatch(/^a row of journal does not fit its schema: id /);
    for (let i = 0; i < 500; i++) parseRow('journal', own, { id: i });
    expect(refusal()).toBe(early);
  });
});
