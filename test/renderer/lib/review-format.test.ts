import { describe, expect, it } from 'vitest';
import { formatFieldValue, kindLabel } from '../../../src-renderer/src/lib/review-format.ts';

describe('review formatting', () => {
  it('shows money through the formatter and flags as words', () => {
    expect(formatFieldValue('price', 1234)).toBe('$12.34');
    expect(formatFieldValue('promoted', 1)).toBe('promoted');
    expect(formatFieldValue('active', 0)).toBe('paused');
    expect(formatFieldValue('user_note', '')).toBe('(no note)');
    expect(formatFieldValue('quantity', 3)).toBe('3');
    expect(formatFieldValue('price', null)).toBe('—');
  });
  it('names kinds of change in words', () => {
    expect(kindLabel('listing.deleteAll')).toBe('Delete all listings');
    expect(kindLabel('buyOrder.edit')).toBe('Edit buy order');
  });
});
