import { afterEach, describe, expect, it } from 'vitest';
import { tempStore, type TempStore } from './temp-store.ts';

let t: TempStore;
afterEach(() => t.dispose());

describe('accounts repo', () => {
  it('records the main and linked accounts from get_linked_trade_urls, keeping other fields', () => {
    t = tempStore({ seedAccounts: false });
    const { accounts } = t.repos;
    accounts.upsert({ account_id: '2', kind: 'linked', name: 'alt', automated: true });
    accounts.syncTradeUrls({
      main_account: { id64: '1', trade_url: 'https://x.test/tradeoffer/new/?partner=1&token=a' },
      linked_accounts: [{ id64: '2', trade_url: null }],
    });
    expect(accounts.main()?.account_id).toBe('1');
    expect(accounts.main()?.trade_url).toBe('https://x.test/tradeoffer/new/?partner=1&token=a');
    const linked = accounts.get('2');
    expect(linked).toMatchObject({ kind: 'linked', name: 'alt', automated: true, trade_url: null });
  });

  it('keeps a stored trade URL when an update leaves it out, and flips automation', () => {
    t = tempStore({ seedAccounts: false });
    const { accounts } = t.repos;
    accounts.upsert({ account_id: '1', kind: 'main', trade_url: 'https://x.test/tradeoffer/new/?partner=1&token=a' });
    accounts.upsert({ account_id: '1', kind: 'main', name: 'me' });
    accounts.setAutomated(['1'], true);
    expect(accounts.get('1')).toMatchObject({ name: 'me', automated: true, trade_url: 'https://x.test/tradeoffer/new/?partner=1&token=a' });
    expect(accounts.list()).toHaveLength(1);
  });

  it('refuses an account ID that is not digits', () => {
    t = tempStore({ seedAccounts: false });
    expect(() => t.repos.accounts.upsert({ account_id: '7656x', kind: 'main' })).toThrow();
  });
});
