import { describe, expect, it } from 'vitest';
import { PARSE_PART, parseJsonInParts, SCAN_PART } from '../../../src-main/core/api/json-in-parts.ts';
import { atOnce } from '../../../src-main/core/turn.ts';

/**
 * A list's JSON parsed a group of elements a step gives JSON.parse's value,
 * or JSON.parse's SyntaxError, for every text: lists of any size, strings
 * holding brackets, commas, quotes and backslashes, and malformed texts of
 * every kind. The steps are counted, never timed.
 */

function outcome(run: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof SyntaxError ? 'SyntaxError' : String(error) };
  }
}

function expectAsJsonParse(text: string) {
  expect(outcome(() => atOnce(parseJsonInParts(text))), text.slice(0, 80)).toEqual(outcome(() => JSON.parse(text)));
}

function countSteps(text: string): number {
  const steps = parseJsonInParts(text);
  let turns = 0;
  while (!steps.next().done) turns++;
  return turns;
}

const tricky = { note: 'a "quoted" [list], {braces}, commas, \\ and \\" and \\\\', path: 'C:\\\\', empty: '', nested: [[1, [2]], { a: [] }], n: -1.5e3, t: true, z: null };

describe('a list parsed in parts', () => {
  it('gives JSON.parse’s value for lists small and large, holding strings with brackets, commas, quotes and backslashes', () => {
    for (const text of [
      '[]',
      ' [ ] ',
      '[1]',
      '\r\n\t[1, 2 ,3]\n',
      '[[],[[]],{}]',
      '["]", "[", ",", "\\\\", "\\"", "\\\\\\""]',
      JSON.stringify([tricky]),
      JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ ...tricky, i }))),
      JSON.stringify(Array.from({ length: 3 }, () => 'x'.repeat(PARSE_PART + 7))),
    ]) expectAsJsonParse(text);
  });

  it('gives JSON.parse’s SyntaxError for a malformed text, and JSON.parse’s value for what is not a list', () => {
    const big = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => ({ ...tricky, i })));
    for (const text of [
      '', ' ', '[', ']', '[1,]', '[,1]', '[1,,2]', '[1 2]', '[1]]', '[[1]', '[1] x', '[1],[2]', '[{]}', '["a]', '["\\"]',
      '[\u00a01]', '\u00a0[1]', '[1]\u00a0', '["a\u0001"]',
      `${big.slice(0, -1)},]`, `${big.slice(0, PARSE_PART)},,${big.slice(PARSE_PART)}`, big.slice(0, -1), `${big}]`,
      '{"a":[1,2]}', '"text"', '12', 'null', '{"a":',
    ]) expectAsJsonParse(text);
  });

  it('reads a list of megabytes in steps: the boundary pass SCAN_PART characters a step, then a group of PARSE_PART characters a step', () => {
    const text = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ ...tricky, i })));
    expect(text.length).toBeGreaterThan(5 * SCAN_PART);
    const steps = countSteps(text);
    const scanSteps = Math.floor((text.length - 1) / SCAN_PART);
    const groups = Math.ceil(text.length / PARSE_PART);
    // A group closes at the first element boundary past PARSE_PART characters, so there are at most `groups` of them.
    expect(steps).toBeGreaterThanOrEqual(scanSteps + Math.floor(text.length / (PARSE_PART + 400)) - 1);
    expect(steps).toBeLessThanOrEqual(scanSteps + groups);
    expect(countSteps('[1,2,3]')).toBe(0);
  });
});
