import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstContent } from '../../../src-renderer/src/stores/first-content.ts';
import { useAccountsStore } from '../../../src-renderer/src/stores/accounts.ts';
import { useListingsTable } from '../../../src-renderer/src/stores/ledger.ts';
import { accounts, deskHandlers, listing, pagesOf } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

/** A promise's state without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("a new window asks for its screen's first content before it is built", () => {
  let fake: FakeApi;
  const rows = Array.from({ length: 250 }, (_, i) => listing(i));
  beforeEach(() => {
    vi.useFakeTimers();
    setActivePinia(createPinia());
  });
  afterEach(() => {
    fake.uninstall();
    vi.useRealTimers();
  });

  it('Listings: resolves once its first page and the account names are in, which the screen then shows without asking again', async () => {
    let answerAccounts: () => void = () => undefined;
    fake = installFakeApi(deskHandlers({
      'ledger:page': pagesOf(rows),
      'accounts:list': () => new Promise((resolve) => (answerAccounts = () => resolve(accounts))),
    }));
    const ready = firstContent('listings', 10_000);
    expect(await settled(ready)).toBe(false);
    expect(useListingsTable().rows.rowAt(0)?.key).toBe(listing(0).key);
    answerAccounts();
    expect(await settled(ready)).toBe(true);
    expect(useAccountsStore().mainId).toBe(accounts.main?.id64);
    // The screen starts the same stores while it is built: nothing is asked twice.
    useListingsTable().start();
    useAccountsStore().start();
    await vi.advanceTimersByTimeAsync(0);
    const firstPages = (fake.callsTo('ledger:page') as { offset: number }[]).filter((q) => q.offset === 0);
    expect(firstPages).toHaveLength(1);
    expect(fake.callsTo('accounts:list')).toHaveLength(1);
  });

  it('a slow answer holds the window back no longer than the wait given; the rows still come', async () => {
    let answerPage: () => void = () => undefined;
    const page = pagesOf(rows);
    fake = installFakeApi(deskHandlers({
      'ledger:page': (q) => new Promise((resolve) => (answerPage = () => resolve(page(q)))),
    }));
    const ready = firstContent('listings', 150);
    await vi.advanceTimersByTimeAsync(149);
    expect(await settled(ready)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(ready)).toBe(true);
    answerPage();
    await vi.advanceTimersByTimeAsync(0);
    expect(useListingsTable().rows.total).toBe(250);
  });

  it('a screen that shows the desk-wide stores asks nothing here and waits for nothing', async () => {
    fake = installFakeApi(deskHandlers());
    expect(await settled(firstContent('overview'))).toBe(true);
    expect(fake.calls).toHaveLength(0);
  });
});
