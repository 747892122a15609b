import { describe, expect, it } from 'vitest';
import { isSku, SKU_MAX_LENGTH } from '../../../src-shared/field-rules.ts';
import { sku } from '../../../src-shared/fields.ts';

/**
 * The renderer checks a typed SKU without zod (the schema library stays out
 * of its bundle); main parses it with the zod schema. They must agree, or a
 * form would offer what main refuses, or refuse what main takes.
 */
describe('the renderer’s SKU check', () => {
  const cases = [
    '5021;6', '30911;5;u13', '5021;6;kt-3', 'a;b', '5021', '', ';', '5021;', ';6', '5021;;6', ' 5021;6', '5021;6 ',
    '5021 ;6', '50 21;6', '5021;\t6', '5021;6\u202e', '\u00005021;6', '5021;\u20666', 'x'.repeat(SKU_MAX_LENGTH - 2) + ';6',
    'x'.repeat(SKU_MAX_LENGTH - 1) + ';6', 'é;ü', '5021;6;', '5021;6;;',
  ];

  it.each(cases)('says of %j what main’s schema says', (text) => {
    expect(isSku(text)).toBe(sku.safeParse(text).success);
  });

  it('accepts the shapes the service documents and refuses the rest', () => {
    expect(isSku('5021;6')).toBe(true);
    expect(isSku('30911;5;u13')).toBe(true);
    expect(isSku('5021')).toBe(false);
    expect(isSku('5021;6\u202e')).toBe(false);
    expect(isSku('x'.repeat(SKU_MAX_LENGTH - 1) + ';6')).toBe(false);
  });
});
