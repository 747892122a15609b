import { describe, expect, it } from 'vitest';
import { parseAssetIds } from '../../src-shared/typed-values.ts';

describe('pasted asset IDs', () => {
  it('reads one per line and names bad lines by number', () => {
    const r = parseAssetIds('111\n\n 222 \nabc\n111\n333,\n12345678901234567890123');
    expect(r.ids).toEqual(['111', '222', '333']);
    expect(r.errors.map((e) => e.line)).toEqual([4, 5, 7]);
    expect(r.errors[1]?.reason).toMatch(/repeats line 1/);
  });
});
