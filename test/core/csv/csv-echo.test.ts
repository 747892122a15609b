import { afterEach, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from './csv-support.ts';

/** One schema for the file: loading it is the slow part. */
const names = createItemNames();

let f: CsvFixture;
afterEach(() => f.dispose());

/** A cell of 60,000 characters (lower case, as a header name is read): a line that long is still read (the reader stops at 64k). */
const LONG = 'z'.repeat(60_000);
/** How a refusal quotes it: 80 characters and how many more there were. */
const EXCERPT = `${'z'.repeat(80)}… (59920 more characters)`;

/** The reasons of a preview, each checked to quote the long cell as an excerpt at most. */
async function reasons(kind: 'listings' | 'buyOrders' | 'draft', text: string, draftId?: string): Promise<string[]> {
  const p = await preview(f, kind, text, draftId);
  const said = p.errors.map((e) => e.reason);
  for (const reason of said) expect(reason.length, reason.slice(0, 200)).toBeLessThan(400);
  return said;
}

describe('a refusal quotes at most an excerpt of its line', () => {
  it('names a long unknown or repeated column by an excerpt', async () => {
    f = csvFixture({ names });
    expect(await reasons('listings', csvOf(`asset_id,price,${LONG}`, '1,4.50,x'))).toEqual([expect.stringMatching(new RegExp(`^unknown column ${EXCERPT.replace(/[(.)]/g, '\\$&')} — expected`))]);
    // Twice 30,000 characters: a line of twice 60,000 is too long to read at all.
    const half = 'z'.repeat(30_000);
    expect(await reasons('buyOrders', csvOf(`sku,price,quantity,${half},${half}`, 'a;6,4.50,1,,'))).toEqual([expect.stringContaining(`column ${'z'.repeat(80)}… (29920 more characters) appears twice`)]);
  });

  it('names a long asset, listing or SKU repeated on another line by an excerpt', async () => {
    f = csvFixture({ names });
    expect(await reasons('listings', csvOf('asset_id,listing_id,price', `${LONG},L1,4.50`, `${LONG},L2,4.50`, `1,${LONG},4.50`, `2,${LONG},4.50`)))
      .toEqual(expect.arrayContaining([expect.stringContaining(`asset_id: ${EXCERPT} is on line 2 already`), expect.stringContaining(`listing_id: ${EXCERPT} is on line 4 already`)]));
    expect(await reasons('buyOrders', csvOf('sku,price,quantity', `${LONG},4.50,1`, `${LONG},4.50,1`)))
      .toEqual(expect.arrayContaining([expect.stringContaining(`sku: ${EXCERPT} is on line 2 already`)]));
    const { id } = f.drafts.create('d');
    expect(await reasons('draft', csvOf('kind,sku,price,quantity', `buyOrder.create,${LONG},4.50,1`, `buyOrder.create,${LONG},4.50,1`), id))
      .toEqual(expect.arrayContaining([expect.stringContaining(`sku: ${EXCERPT} has a change on line 2 already`)]));
  });

  it('names a long item name, or the SKU beside it, by an excerpt', async () => {
    f = csvFixture({ names });
    const said = await reasons('buyOrders', csvOf('sku,name,price,quantity', `,${LONG},4.50,1`, `5021;6,${LONG},4.50,1`, `${LONG},Mann Co. Supply Crate Key,4.50,1`));
    expect(said).toHaveLength(3);
    expect(said[0]).toContain(`"${EXCERPT}"`);
    expect(said[1]).toContain(`name: “${EXCERPT}” is not the item of sku 5021;6`);
    expect(said[2]).toContain(`is not the item of sku ${EXCERPT} (${EXCERPT})`);
  });
});
