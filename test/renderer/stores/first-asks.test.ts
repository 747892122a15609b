import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askEarly, dropEarlyAsks } from '../../../src-renderer/src/bridge/early-asks.ts';
import { firstAsksFor } from '../../../src-renderer/src/lib/first-asks.ts';
import { VIEWS } from '../../../src-renderer/src/lib/nav.ts';
import { firstContent } from '../../../src-renderer/src/stores/first-content.ts';
import { useProfileStore } from '../../../src-renderer/src/stores/profile.ts';
import { useListingsTable } from '../../../src-renderer/src/stores/ledger.ts';
import { deskHandlers, listing, pagesOf } from '../desk-data.ts';
import { flush, installFakeApi, type FakeApi } from '../fake-api.ts';

/** A window's first questions, asked before its code loads, are the very ones its stores ask, and each is asked once. */

let fake: FakeApi;
const rows = Array.from({ length: 250 }, (_, i) => listing(i));
beforeEach(() => {
  setActivePinia(createPinia());
  fake = installFakeApi(deskHandlers({ 'ledger:page': pagesOf(rows) }));
});
afterEach(() => {
  dropEarlyAsks();
  fake.uninstall();
});

const asked = () => fake.calls.map((c) => `${c.channel} ${JSON.stringify(c.input)}`);

describe('the first asks', () => {
  it.each(VIEWS.map((v) => v.id))('on %s are the questions the stores ask as the window is built', async (view) => {
    await Promise.all([useProfileStore().problem(), firstContent(view, 1_000)]);
    await flush();
    const early = firstAsksFor(view).map((a) => `${a.channel} ${JSON.stringify(a.input)}`);
    expect(asked().filter((c) => early.includes(c)).sort()).toEqual([...early].sort());
  });

  it('are asked once: the stores take the early answers instead of asking again', async () => {
    askEarly(window.api, firstAsksFor('listings'));
    expect(asked()).toHaveLength(3);
    await Promise.all([useProfileStore().problem(), firstContent('listings', 1_000)]);
    await flush();
    // The margin page (100…199) is the one question asked after.
    expect(asked().filter((c) => c.startsWith('ledger:page'))).toHaveLength(2);
    expect(asked().filter((c) => c.startsWith('accounts:list') || c.startsWith('profile:problem'))).toHaveLength(2);
    expect(useListingsTable().rows.rowAt(0)?.key).toBe(listing(0).key);
  });

  it('are dropped once the window is built: a later question asks afresh', async () => {
    askEarly(window.api, firstAsksFor('overview'));
    dropEarlyAsks();
    await useProfileStore().problem();
    expect(asked().filter((c) => c.startsWith('profile:problem'))).toHaveLength(2);
  });
});
