import { describe, expect, it } from 'vitest';
import { allowedExternalUrl } from '../../../src-main/core/shell/external-links.ts';

const policy = { serviceOrigins: ['https://market.example', 'http://127.0.0.1:4010'] };

describe('allowedExternalUrl', () => {
  it('lets trade-offer pages through, as the parser serialises them', () => {
    expect(allowedExternalUrl('https://steamcommunity.com/tradeoffer/123456789/', policy))
      .toBe('https://steamcommunity.com/tradeoffer/123456789/');
    expect(allowedExternalUrl('https://STEAMCOMMUNITY.com/tradeoffer/new/?partner=12&token=ab_C', policy))
      .toBe('https://steamcommunity.com/tradeoffer/new/?partner=12&token=ab_C');
  });

  it('lets a trade partner\'s profile through on Steam, backpack.tf and SteamRep, and nothing else of those sites', () => {
    for (const host of ['steamcommunity.com', 'backpack.tf', 'steamrep.com']) {
      expect(allowedExternalUrl(`https://${host}/profiles/76561198000000009`, policy)).toBe(`https://${host}/profiles/76561198000000009`);
      expect(allowedExternalUrl(`https://${host}/profiles/76561198000000009/../../login`, policy)).toBeNull();
      expect(allowedExternalUrl(`https://${host}/profiles/76561198000000009?redirect=https://evil.example`, policy)).toBeNull();
      expect(allowedExternalUrl(`https://${host}/id/somebody`, policy)).toBeNull();
      expect(allowedExternalUrl(`http://${host}/profiles/76561198000000009`, policy)).toBeNull();
    }
    expect(allowedExternalUrl('https://www.backpack.tf/profiles/76561198000000009', policy)).toBeNull();
    expect(allowedExternalUrl('https://steamrep.com.evil.example/profiles/76561198000000009', policy)).toBeNull();
    expect(allowedExternalUrl('https://backpack.tf/profiles/1', policy)).toBeNull();
  });

  it('lets the service\'s own HTTPS pages through', () => {
    expect(allowedExternalUrl('https://market.example/docs/api#limits', policy)).toBe('https://market.example/docs/api#limits');
  });

  it.each([
    ['plain http', 'http://steamcommunity.com/tradeoffer/1/'],
    ['another path on the trade site', 'https://steamcommunity.com/login/home/'],
    ['dot segments out of /tradeoffer/', 'https://steamcommunity.com/tradeoffer/../login/'],
    ['encoded dot segments', 'https://steamcommunity.com/tradeoffer/%2e%2e/login'],
    ['a look-alike subdomain', 'https://steamcommunity.com.evil.example/tradeoffer/1/'],
    ['a prefix that is not the host', 'https://steamcommunity.com@evil.example/tradeoffer/1/'],
    ['credentials before the host', 'https://user:pw@steamcommunity.com/tradeoffer/1/'],
    ['a non-default port', 'https://steamcommunity.com:8443/tradeoffer/1/'],
    ['a sub-page of a trade offer', 'https://steamcommunity.com/tradeoffer/1/accept'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a file: URL', 'file:///etc/passwd'],
    ['the app itself', 'app://desk/index.html'],
    ['not a URL', 'steamcommunity.com/tradeoffer/1/'],
    ['another origin with a matching path', 'https://market.example.evil.example/docs'],
    ['a listed origin that is not HTTPS', 'http://127.0.0.1:4010/docs'],
  ])('refuses %s', (_why, raw) => {
    expect(allowedExternalUrl(raw, policy)).toBeNull();
  });

  it('allows no service page when no origin is configured', () => {
    expect(allowedExternalUrl('https://market.example/', { serviceOrigins: [] })).toBeNull();
  });
});
