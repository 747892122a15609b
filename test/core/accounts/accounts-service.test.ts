import { afterEach, describe, expect, it } from 'vitest';
import { createAccountsService } from '../../../src-main/core/accounts/accounts-service.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { fakeStack } from '../scheduler/support/fake-stack.ts';
import { tempStore, type TempStore } from '../store/temp-store.ts';

const MIN = 60_000;
const MAIN = '76561198000000001';
const LINKED = ['76561198000000002', '76561198000000003'];

let t: TempStore | undefined;
afterEach(() => t?.dispose());

function setup() {
  const { clock, service, scheduler } = fakeStack();
  service.respond('get_linked_trade_urls', () => ({
    main_account: { id64: MAIN, trade_url: null },
    linked_accounts: LINKED.map((id64) => ({ id64, trade_url: null })),
  }));
  t = tempStore({ clock, seedAccounts: false });
  const accounts = createAccountsService({ repo: t.repos.accounts, scheduler, clock });
  const reads = () => service.log.filter((r) => r.endpoint === 'get_linked_trade_urls');
  return { clock, service, accounts, reads };
}

describe('accounts service', () => {
  it('retries a failed first read with backoff until the accounts are known, showing the retry', async () => {
    const { clock, service, accounts, reads } = setup();
    service.failNext('get_linked_trade_urls', () => new ApiError('bad_response', 'get_linked_trade_urls: main_account: required', { status: 200 }));
    const phases: string[] = [];
    accounts.on('changed', (s) => phases.push(s.read.phase));
    accounts.start();
    await clock.advance(1_000);
    expect(accounts.snapshot()).toMatchObject({ main: null, read: { phase: 'retrying', lastError: { kind: 'bad_response' } } });
    await clock.advance(2 * MIN);
    expect(accounts.snapshot().main?.account_id).toBe(MAIN);
    expect(accounts.automatedLinked()).toEqual(LINKED);
    expect(accounts.readState()).toMatchObject({ phase: 'done', lastError: null, nextAttemptAt: null });
    expect(reads()).toHaveLength(2);
    expect(phases).toEqual(['reading', 'retrying', 'reading', 'done']);
    await clock.advance(30 * MIN);
    expect(reads()).toHaveLength(2);
    accounts.stop();
  });

  it('makes one read however many ask for it meanwhile (ten key saves are one read)', async () => {
    const { clock, accounts, reads } = setup();
    const all = Promise.all(Array.from({ length: 10 }, () => accounts.refresh()));
    await clock.run(all);
    expect(reads()).toHaveLength(1);
    expect((await all).every((s) => s.main?.account_id === MAIN)).toBe(true);
  });

  it('answers a refresh within 30 s when the read is stuck behind its rate slot', async () => {
    const { clock, accounts, reads } = setup();
    await clock.run(accounts.refresh());
    const t0 = clock.now();
    await expect(clock.run(accounts.refresh())).rejects.toMatchObject({ kind: 'network', message: expect.stringMatching(/no answer within 30 s/) });
    expect(clock.now() - t0).toBe(30_000);
    expect(accounts.readState().lastError?.message).toMatch(/no answer within 30 s/);
    // The read itself went on, once the slot was free.
    await clock.advance(MIN);
    expect(reads()).toHaveLength(2);
    expect(accounts.readState()).toMatchObject({ phase: 'done', lastError: null });
  });
});
