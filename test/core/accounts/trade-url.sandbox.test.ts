import { describe, expect, it } from 'vitest';
import { partnerOf } from '../../../src-shared/trade-url.ts';
import { sandboxWorkspaces } from '../desk/sandbox-workspace.ts';

/** Main checks a trade URL against the account it is saved for before anything is sent. */

const open = sandboxWorkspaces('desk-trade-url-');
const url = (partner: string, token = 'AbCd_12x', host = 'steamcommunity.com') =>
  `https://${host}/tradeoffer/new/?partner=${partner}&token=${token}`;

describe('saving a trade URL', () => {
  it('refuses another host, another account’s partner and a short token, naming what is wrong; nothing is sent', async () => {
    const { ws, sandbox } = await open(51);
    const linked = sandbox.accounts.linked[0] ?? '';
    const own = partnerOf(linked) ?? '';
    const mainPartner = partnerOf(sandbox.accounts.main) ?? '';
    const cases: Array<[string, string | undefined, RegExp]> = [
      [url(own, 'AbCd_12x', 'evil.example'), linked, /host must be steamcommunity\.com, not evil\.example/],
      [url('1', 'x'), linked, /token must be 8 characters \(this one has 1\)/],
      [url(mainPartner), linked, new RegExp(`partner ${mainPartner} is another account’s: this account’s is ${own}`)],
      [url(own), undefined, new RegExp(`partner ${own} is another account’s`)],
      [url(own).replace('https:', 'http:'), linked, /https:\/\//],
      [url(own).replace('/new/', '/'), linked, /path must be \/tradeoffer\/new\//],
    ];
    for (const [tradeUrl, account, reason] of cases) {
      const error = await ws.accounts.setTradeUrl(tradeUrl, account).then(() => null, (e: unknown) => e);
      expect(error, tradeUrl).toMatchObject({ kind: 'invalid', message: expect.stringMatching(reason) });
    }
    expect(sandbox.log.requests.filter((r) => r.endpoint === 'set_trade_url')).toEqual([]);
    expect([...sandbox.admin.tradeUrls().values()].every((u) => u === null)).toBe(true);
  });

  it('saves the account’s own URL on the service', async () => {
    const { ws, sandbox } = await open(52);
    const linked = sandbox.accounts.linked[1] ?? '';
    const good = url(partnerOf(linked) ?? '');
    const snapshot = await ws.accounts.setTradeUrl(good, linked);
    expect(sandbox.admin.tradeUrls().get(linked)).toBe(good);
    expect(snapshot.linked.find((a) => a.account_id === linked)?.trade_url).toBe(good);
  });
});
