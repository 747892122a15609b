import { afterEach, describe, expect, it } from 'vitest';
import type { CsvPartInput } from '../../../src-main/core/csv/csv-part-order.ts';
import { csvFixture, type CsvFixture } from './csv-support.ts';

let f: CsvFixture;
afterEach(() => f.dispose());

/**
 * A buy-orders file in three parts, cut inside the prices: the first row
 * costs 12.50, the second 1.00. Joined in another order, the same text reads
 * the first row at 1.00.
 */
const PARTS: readonly CsvPartInput[] = [
  { seq: 1, text: 'sku,price,quantity\r\n5021;6,1', last: false },
  { seq: 2, text: '2.50,1\r\n5022;6,1', last: false },
  { seq: 3, text: '.00,1\r\n', last: true },
];

const GONE = 'This CSV import is no longer under way (another one started, or it stopped at an error); check the file again';

/** The texts the store keeps for uploads and previews (a table each). */
const keptTexts = () => (f.t.store.db.prepare("SELECT count(*) AS n FROM sqlite_temp_master WHERE type = 'table' AND name GLOB 'csv_spool_*'").get() as { n: number }).n;

/** Sends `parts` in the order given; answers the refusal of the first one refused. */
async function sendAll(parts: readonly CsvPartInput[]): Promise<{ refusal: unknown; upload: string }> {
  const upload = f.csv.startImport('buyOrders');
  for (const part of parts) {
    try {
      await f.csv.importPart(upload, part);
    } catch (error) {
      return { refusal: error, upload };
    }
  }
  return { refusal: null, upload };
}

describe('CSV parts are taken only in order and whole', () => {
  it('reads the parts in order as the file they make', async () => {
    f = csvFixture();
    const upload = f.csv.startImport('buyOrders');
    let preview = null;
    for (const part of PARTS) preview = await f.csv.importPart(upload, part);
    await f.csv.commitImport(preview?.token ?? '');
    expect(f.t.repos.buyOrders.all().map((b) => [b.sku, b.price])).toEqual([['5021;6', 1250], ['5022;6', 100]]);
  });

  it.each([
    ['out of order', [PARTS[0], PARTS[2], PARTS[1]], 'part 3 came where part 2 was expected (part 2 is missing or out of order)'],
    ['missing', [PARTS[0], PARTS[2]], 'part 3 came where part 2 was expected (part 2 is missing or out of order)'],
    ['repeated', [PARTS[0], PARTS[1], PARTS[1], PARTS[2]], 'part 2 came again (part 3 was expected)'],
    ['missing its first', [PARTS[1], PARTS[2]], 'part 2 came where part 1 was expected (part 1 is missing or out of order)'],
  ] as const)('refuses a file with a part %s, naming the part, and keeps nothing of it', async (_, parts, what) => {
    f = csvFixture();
    const { refusal, upload } = await sendAll(parts as readonly CsvPartInput[]);
    expect(refusal).toMatchObject({ kind: 'invalid', message: `The CSV file arrived out of order: ${what}, so nothing from it was kept; check the file again` });
    // The upload is gone: the parts after the refused one are refused too, and no preview comes of it.
    await expect(f.csv.importPart(upload, PARTS[2] as CsvPartInput)).rejects.toMatchObject({ kind: 'not_found', message: GONE });
    expect(keptTexts()).toBe(0);
    expect(f.t.repos.buyOrders.count()).toBe(0);
  });
});
