import { describe, expect, it } from 'vitest';
import { markShown, readAmount } from '../../../src-main/core/csv/csv-amounts.ts';

describe('prices as spreadsheets write them', () => {
  it('reads either decimal mark, and thousands grouped by the other mark, a space or an apostrophe', () => {
    for (const [cell, cents] of [
      ['4.50', 450], ['4,50', 450], ['1,5', 150], ['$4.5', 450], ['4,50 $', 450], ['7', 700], ['.5', 50], ['12,', 1_200],
      ['1,234.50', 123_450], ['1.234,50', 123_450], ['1 234,50', 123_450], ['1\u00A0234,5', 123_450], ["1'234.50", 123_450],
      ['1,234,567', 123_456_700], ['1.234.567,89', 123_456_789], ['-4,50', -450],
    ] as const) {
      expect(readAmount(cell, null), cell).toEqual({ cents });
    }
  });

  it('reads a lone mark before three digits by the file’s decimal mark, and refuses it with why when the file does not say', () => {
    expect(readAmount('1,234', '.')).toEqual({ cents: 123_400 });
    expect(readAmount('1.234', ',')).toEqual({ cents: 123_400 });
    expect(readAmount('1,234', ',')).toEqual({ problem: '“1,234” has 3 digits after the decimal comma; a price has at most 2 (if “,” groups thousands in this file, choose a decimal point)' });
    expect(readAmount('1,234', null)).toEqual({
      problem: '“1,234” could be 1,234.00 or 1.234 dollars: the file does not say whether “,” is its decimal mark or groups thousands; choose the decimal mark, or write the cents too (1234.00)',
    });
  });

  it('says what is wrong with a cell that is not an amount', () => {
    expect(readAmount('four', '.')).toEqual({ problem: 'must be an amount in dollars, e.g. 4.50 (or 4,50 with a decimal comma)' });
    expect(readAmount('4.505', '.')).toMatchObject({ problem: expect.stringContaining('3 digits after the decimal point') });
    expect(readAmount('12,34,56', '.')).toMatchObject({ problem: expect.stringContaining('groups its digits oddly') });
    expect(readAmount('1.2.3,4', ',')).toMatchObject({ problem: expect.stringContaining('groups its digits oddly') });
  });

  it('tells a file’s decimal mark from the shape of its prices, and not from one that could be either', () => {
    expect(['4,50', '1.234,50', '4.50', '1,234.5', '1,234', '1.234', '7'].map(markShown)).toEqual([',', ',', '.', '.', null, null, null]);
  });
});
