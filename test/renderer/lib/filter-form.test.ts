import { describe, expect, it } from 'vitest';
import { isFilterActive, withField } from '../../../src-renderer/src/lib/filter-form.ts';

describe('a table filter set field by field', () => {
  it('keeps "non-craftable" (craftable: false) as a filter, and drops an empty field', () => {
    const f = withField({}, 'craftable', false);
    expect(f).toEqual({ craftable: false });
    expect(isFilterActive(f)).toBe(true);
    expect(withField(f, 'craftable', undefined)).toEqual({});
  });

  it('reads a flag turned off as no filter, as before', () => {
    expect(withField({ changedOnly: true }, 'changedOnly', false)).toEqual({});
    expect(isFilterActive({ changedOnly: false })).toBe(false);
    expect(isFilterActive({ quality: 5 })).toBe(true);
  });
});
