import { describe, expect, it } from 'vitest';
import { tradeUrl } from '../../../src-shared/fields.ts';
import { isTradeUrl, tradeUrlProblem } from '../../../src-renderer/src/lib/trade-url.ts';

const CASES = [
  'https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCdEf12',
  'https://example.org/tradeoffer/new/?token=a_b-c&partner=1',
  'http://steamcommunity.com/tradeoffer/new/?partner=1&token=abc',
  'https://steamcommunity.com/tradeoffer/new?partner=1&token=abc',
  'https://steamcommunity.com/tradeoffer/new/?partner=1',
  'https://steamcommunity.com/tradeoffer/new/?partner=x1&token=abc',
  'https://steamcommunity.com/tradeoffer/new/?partner=1&token=ab$c',
  'https://steamcommunity.com/tradeoffer/new/?partner=1&token=abc&extra=1',
  'https://steamcommunity.com/tradeoffer/new/?partner=1&token=abc#x',
  'https://user:pw@steamcommunity.com/tradeoffer/new/?partner=1&token=abc',
  'https://steamcommunity.com/tradeoffer/new/?partner=1&partner=2&token=abc',
  'steamcommunity.com/tradeoffer/new/?partner=1&token=abc',
  '',
  'not a url',
  `https://h.io/tradeoffer/new/?partner=${'1'.repeat(21)}&token=a`,
  `https://h.io/tradeoffer/new/?partner=1&token=${'a'.repeat(65)}`,
];

describe('trade URL rule', () => {
  it('agrees with the contract’s rule on every case', () => {
    for (const url of CASES) {
      expect(isTradeUrl(url), url).toBe(tradeUrl.safeParse(url).success);
    }
  });

  it('says what to fix while typing', () => {
    expect(tradeUrlProblem('http://a.b/tradeoffer/new/?partner=1&token=x')).toMatch(/https/);
    expect(tradeUrlProblem('https://a.b/tradeoffer/new/?partner=1')).toMatch(/token/);
    expect(tradeUrlProblem('https://a.b/tradeoffer/new/?token=x')).toMatch(/partner/);
    expect(tradeUrlProblem('https://a.b/offer/?partner=1&token=x')).toMatch(/\/tradeoffer\/new\//);
    expect(tradeUrlProblem('https://a.b/tradeoffer/new/?partner=ab&token=x')).toMatch(/digits/);
    expect(tradeUrlProblem('')).toMatch(/Paste/);
    expect(tradeUrlProblem('https://a.b/tradeoffer/new/?partner=12&token=x_Y-9')).toBeNull();
  });
});
