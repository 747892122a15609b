import { describe, expect, it } from 'vitest';
import { tradeUrl } from '../../src-shared/fields.ts';
import { partnerOf, tradeUrlProblem } from '../../src-shared/trade-url.ts';

const OWNER = '76561198000000001';
const PARTNER = '39734273';
const GOOD = `https://steamcommunity.com/tradeoffer/new/?partner=${PARTNER}&token=AbCd_12x`;

describe('the trade URL rule', () => {
  it('reads the partner number of a 64-bit account ID', () => {
    expect(partnerOf(OWNER)).toBe(PARTNER);
    expect(partnerOf('76561197960265728')).toBe('0');
    expect(partnerOf('123')).toBeNull();
    expect(partnerOf('76561197960265727')).toBeNull();
  });

  it.each([
    ['https://evil.example/tradeoffer/new/?partner=1&token=xxxxxxxx', /^The host must be steamcommunity\.com, not evil\.example\.$/],
    ['https://steamcommunity.com.evil.example/tradeoffer/new/?partner=1&token=xxxxxxxx', /host must be steamcommunity\.com/],
    ['https://www.steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx', /host must be steamcommunity\.com, not www/],
    ['http://steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx', /^It must start with https:\/\/ \(not http:\/\/\)\.$/],
    ['https://steamcommunity.com:8443/tradeoffer/new/?partner=1&token=xxxxxxxx', /port/],
    ['https://steamcommunity.com/tradeoffer/new?partner=1&token=xxxxxxxx', /^The path must be \/tradeoffer\/new\/, not \/tradeoffer\/new\.$/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1', /needs token=<8 characters>/],
    ['https://steamcommunity.com/tradeoffer/new/?token=xxxxxxxx', /needs partner=/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx&extra=1', /only partner and token, not extra/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&partner=2&token=xxxxxxxx', /once each/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=x1&token=xxxxxxxx', /partner must be the account’s number/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=xxxxxxxx', /at most 4294967295/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&token=abc', /^token must be 8 characters \(this one has 3\)\.$/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&token=abcdefghi', /this one has 9/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&token=ab$cdefg', /letters, digits/],
    ['https://steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx#x', /fragment/],
    ['https://user:pw@steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx', /user name or password/],
    ['steamcommunity.com/tradeoffer/new/?partner=1&token=xxxxxxxx', /not a URL/],
    ['', /Paste/],
    [`https://steamcommunity.com/tradeoffer/new/?partner=1&token=${'x'.repeat(3000)}`, /longer than 2,000/],
  ])('refuses %s, saying why', (url, reason) => {
    expect(tradeUrlProblem(url)).toMatch(reason);
    // The contract's schema refuses the same, with the same words.
    const parsed = tradeUrl.safeParse(url);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(reason);
  });

  it('accepts the platform’s own form, and checks the partner against the account when it is known', () => {
    expect(tradeUrlProblem(GOOD)).toBeNull();
    expect(tradeUrl.safeParse(GOOD).success).toBe(true);
    expect(tradeUrlProblem(GOOD, OWNER)).toBeNull();
    expect(tradeUrlProblem(GOOD.replace(PARTNER, '1'), OWNER)).toBe(`partner 1 is another account’s: this account’s is ${PARTNER}.`);
    expect(tradeUrlProblem(GOOD, '123')).toMatch(/not a platform account ID/);
    expect(tradeUrl.safeParse(` ${GOOD}`).success).toBe(false);
  });
});
