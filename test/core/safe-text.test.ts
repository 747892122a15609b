import { describe, expect, it } from 'vitest';
import { printable, truncate } from '../../src-main/core/safe-text.ts';

describe('printable text', () => {
  it('shows every control, line separator, direction control and lone surrogate as U+FFFD', () => {
    const hostile = 'a\u0000b\u0007c\u001b[31md\r\ne\u007ff\u0085g\u2028h\u202ei\u2066j\u200fk\ud800l\udc00m';
    expect(printable(hostile, 100)).toBe('a\uFFFDb\uFFFDc\uFFFD[31md\uFFFD\uFFFDe\uFFFDf\uFFFDg\uFFFDh\uFFFDi\uFFFDj\uFFFDk\uFFFDl\uFFFDm');
  });

  it('keeps other scripts, emoji (surrogate pairs) and punctuation', () => {
    const fine = 'שלום مرحبا übergroß 🦊 “quoted” — 100%';
    expect(printable(fine, 100)).toBe(fine);
  });

  it('cuts first, so a 10 MB input costs no more than a short one, and says how much was left out', () => {
    const huge = `${'\u001b'.repeat(10)}${'x'.repeat(10 * 1024 * 1024)}`;
    const out = printable(huge, 20);
    expect(out).toBe(`${'\uFFFD'.repeat(10)}${'x'.repeat(10)}… (${huge.length - 20} more characters)`);
    expect(truncate('abcdef', 10)).toBe('abcdef');
  });
});
