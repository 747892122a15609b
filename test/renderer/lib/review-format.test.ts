import { describe, expect, it } from 'vitest';
import { countByKind, formatFieldValue } from '../../../src-renderer/src/lib/review-format.ts';

describe('review formatting', () => {
  it('shows money through the formatter and flags as words', () => {
    expect(formatFieldValue('price', 1234)).toBe('$12.34');
    expect(formatFieldValue('promoted', 1)).toBe('promoted');
    expect(formatFieldValue('active', 0)).toBe('paused');
    expect(formatFieldValue('user_note', '')).toBe('(no note)');
    expect(formatFieldValue('quantity', 3)).toBe('3');
    expect(formatFieldValue('price', null)).toBe('—');
  });
  it('groups kinds in the order an apply runs them: deletes, edits, creates', () => {
    const groups = countByKind([{ kind: 'listing.create' }, { kind: 'listing.edit' }, { kind: 'listing.create' }, { kind: 'listing.delete' }, { kind: 'listing.deleteAll' }]);
    expect(groups).toEqual([
      { kind: 'listing.deleteAll', count: 1 },
      { kind: 'listing.delete', count: 1 },
      { kind: 'listing.edit', count: 1 },
      { kind: 'listing.create', count: 2 },
    ]);
  });
});
