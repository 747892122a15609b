import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../src-main/core/items/edit-distance.ts';

describe('editDistance: typing mistakes between two names', () => {
  it.each([
    ['mann co supply crate key', 'mann co supply crate key', 0],
    ['mann co suply crate key', 'mann co supply crate key', 1],
    ['ubersw', 'ubersaw', 1],
    ['tema captain', 'team captain', 1],
    ['taem captian', 'team captain', 2],
    ['kitten', 'sitting', 3],
  ])('%j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b, 3)).toBe(d);
    expect(editDistance(b, a, 3)).toBe(d);
  });

  it('stops at the bound: anything further is bound + 1', () => {
    expect(editDistance('team captain', 'rocket launcher', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
  });
});
