import { afterEach, describe, expect, it } from 'vitest';
import { csvFixture, preview, type CsvFixture } from './csv-support.ts';

let f: CsvFixture;
afterEach(() => f.dispose());

describe('CSV import of a very large file', () => {
  it('reports 200,000 refused lines as lines, not as an internal failure', async () => {
    f = csvFixture();
    const { id } = f.drafts.create('d');
    // Deletes of buy orders the ledger does not hold: every line passes the file's rules and is refused by the draft's.
    const lines = ['kind,sku'];
    for (let i = 0; i < 200_000; i++) lines.push(`buyOrder.delete,${100_000 + i};6`);
    const p = await preview(f, 'draft', `${lines.join('\n')}\n`, id);
    expect(p.validCount).toBe(0);
    // Every line counted; the first 200 listed, in line order.
    expect(p.errorCount).toBe(200_000);
    expect(p.errors).toHaveLength(200);
    expect(p.errors.map((e) => e.line)).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
    expect(p.errors[0]).toEqual({ line: 2, reason: expect.any(String) });
  }, 60_000);
});
