import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import type { ManualClock } from './helpers.ts';
import { call, manualClock, MINUTE } from './helpers.ts';

let sandbox: Sandbox;
let clock: ManualClock;

beforeEach(async () => {
  clock = manualClock();
  sandbox = await startSandbox({ clock, inventorySize: 100, tradeSchedule: false });
});
afterEach(() => sandbox.close());

const URL_OK = 'https://steamcommunity.com/tradeoffer/new/?partner=4242&token=tok_EN12';

describe('sandbox accounts', () => {
  it('marks the account automated for 600 s after set_user_agent, and the flag lapses unless renewed', async () => {
    expect(sandbox.admin.userAgent()).toEqual({ refreshAt: null, automated: false });
    const res = await call(sandbox, 'set_user_agent');
    const refreshAt = Math.floor(clock.now() / 1000) + 600;
    expect(res.body).toEqual({ refresh_at: refreshAt });
    expect(sandbox.admin.userAgent()).toEqual({ refreshAt: refreshAt * 1000, automated: true });
    expect(sandbox.admin.userAgent(sandbox.accounts.linked[0])).toMatchObject({ automated: false });
    clock.advance(9 * MINUTE);
    expect(sandbox.admin.userAgent().automated).toBe(true);
    const renewed = await call(sandbox, 'set_user_agent');
    expect(renewed.body).toEqual({ refresh_at: refreshAt + 540 });
    clock.advance(10 * MINUTE);
    expect(sandbox.admin.userAgent()).toEqual({ refreshAt: (refreshAt + 540) * 1000, automated: false });
  });

  it('marks the linked accounts named in multiaccounts, and refuses an unknown one changing nothing', async () => {
    const [l0, l1, l2] = sandbox.accounts.linked;
    await call(sandbox, 'set_user_agent', { multiaccounts: [l0 ?? '', l1 ?? ''] });
    expect(sandbox.admin.userAgent(l0).automated).toBe(true);
    expect(sandbox.admin.userAgent(l1).automated).toBe(true);
    if (l2) expect(sandbox.admin.userAgent(l2).automated).toBe(false);
    clock.advance(11 * MINUTE);
    const refused = await call(sandbox, 'set_user_agent', { multiaccounts: [l0 ?? '', '76561190000000009'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: expect.stringMatching(/^multiaccounts\.1: /) });
    expect(sandbox.admin.userAgent().automated).toBe(false);
    clock.advance(MINUTE);
    const malformed = await fetch(`${sandbox.url}/api/dev/set_user_agent?multiaccounts=abc`, { headers: { 'X-API-Key': sandbox.apiKey } });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ success: false, error: expect.stringMatching(/^multiaccounts\.0: /) });
  });

  it('listings report whether their own account is automated now', async () => {
    const linked = sandbox.accounts.linked[0] ?? '';
    sandbox.admin.seedListings(1);
    sandbox.admin.seedListings(1, linked);
    await call(sandbox, 'set_user_agent', { multiaccounts: [linked] });
    expect(sandbox.admin.listings().map((l) => l.automated)).toEqual([true, true]);
    clock.advance(MINUTE);
    await call(sandbox, 'set_user_agent');
    clock.advance(9.5 * MINUTE);
    expect(sandbox.admin.listings().map((l) => [l.account, l.automated])).toEqual([[sandbox.accounts.main, true], [linked, false]]);
  });

  it('sets trade URLs of the main and linked accounts, validating the documented form', async () => {
    const linked = sandbox.accounts.linked[1] ?? '';
    expect((await call(sandbox, 'set_trade_url', { trade_url: URL_OK })).status).toBe(200);
    clock.advance(MINUTE);
    expect((await call(sandbox, 'set_trade_url', { trade_url: URL_OK, multiaccount_proxy: linked })).status).toBe(200);
    for (const bad of ['http://steamcommunity.com/tradeoffer/new/?partner=1&token=x', 'https://x.invalid/tradeoffer/new/?partner=1&token=abcdefgh', 'not a url']) {
      clock.advance(MINUTE);
      const res = await call(sandbox, 'set_trade_url', { trade_url: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^trade_url: /) });
    }
    clock.advance(MINUTE);
    const unknown = await call(sandbox, 'set_trade_url', { trade_url: URL_OK, multiaccount_proxy: '76561190000000009' });
    expect(unknown.status).toBe(400);
    const urls = await call(sandbox, 'get_linked_trade_urls');
    expect(urls.body).toEqual({
      main_account: { id64: sandbox.accounts.main, trade_url: URL_OK },
      linked_accounts: sandbox.accounts.linked.map((id64) => ({ id64, trade_url: id64 === linked ? URL_OK : null })),
    });
  });

  it('reads the balance set by the admin, in integer cents', async () => {
    sandbox.admin.setBalance({ balance: 12_345, pending_balance: 600 });
    expect((await call(sandbox, 'get_balance')).body).toEqual({ balance: 12_345, pending_balance: 600 });
    expect(() => sandbox.admin.setBalance(1.5)).toThrow(RangeError);
  });
});
