import { NO_FINDINGS } from '../../../src-shared/price-guard.ts';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useListingsTable } from '../../../src-renderer/src/stores/ledger.ts';
import { deskHandlers, listing, pagesOf } from '../desk-data.ts';
import { flush, installFakeApi, type FakeApi } from '../fake-api.ts';

describe('a ledger table asks main for what it shows', () => {
  let fake: FakeApi;
  let stamps = { ledger: 3, drafts: 3 };
  const rows = Array.from({ length: 250 }, (_, i) => listing(i));
  beforeEach(() => {
    setActivePinia(createPinia());
    stamps = { ledger: 3, drafts: 3 };
    fake = installFakeApi(deskHandlers({
      'ledger:page': (q) => pagesOf(rows, stamps)(q),
      'ledger:bulk': () => ({ draftId: 'd1', changed: 250, matched: 250, skipped: [], refused: [], samples: [], minAfter: null, maxAfter: null, guard: NO_FINDINGS }),
    }));
  });
  afterEach(() => fake.uninstall());

  const pages = () => fake.callsTo('ledger:page') as Array<{ filter: object; offset: number }>;

  it('asks for the page on screen with the filter and sort set, and counts as main counts', async () => {
    const table = useListingsTable();
    table.start();
    await flush();
    expect(pages()[0]).toMatchObject({ domain: 'listings', filter: {}, sort: null, offset: 0, limit: 100 });
    expect(table.rows.total).toBe(250);
    expect(table.rows.rowAt(3)?.key).toBe('1003');
    table.setFilter({ text: 'item 1' });
    await flush();
    expect(pages().at(-1)).toMatchObject({ filter: { text: 'item 1' } });
  });

  it('asks again only when main says its ledger or drafts moved past what is shown', async () => {
    const table = useListingsTable();
    table.start();
    await flush();
    const before = pages().length;
    fake.emit('ledger:changed', { stamp: 2 });
    fake.emit('drafts:changed', { stamp: 3, draftId: 'd1' });
    await flush();
    expect(pages()).toHaveLength(before);
    stamps = { ledger: 4, drafts: 3 };
    fake.emit('ledger:changed', { stamp: 4 });
    await flush();
    expect(pages().length).toBeGreaterThan(before);
  });

  it('an edit and the push it causes share one refresh of the rows on screen', async () => {
    const table = useListingsTable();
    table.start();
    await flush();
    const before = pages().length;
    const onScreen = before;
    stamps = { ledger: 3, drafts: 4 };
    const edit = table.bulk({ op: 'setPromoted', value: 1 });
    fake.emit('drafts:changed', { stamp: 4, draftId: 'd1' });
    await edit;
    await flush();
    expect(pages().length - before).toBe(onScreen);
  });

  it('sends a select-all as a filter, not 250 keys, and a new filter clears the selection', async () => {
    const table = useListingsTable();
    table.start();
    await flush();
    table.selectAll();
    expect(table.selectedCount).toBe(250);
    await table.bulk({ op: 'setPromoted', value: 1 });
    expect(fake.callsTo('ledger:bulk')).toEqual([{ domain: 'listings', selection: { filter: {}, except: [] }, op: { op: 'setPromoted', value: 1 } }]);
    table.setFilter({ promoted: 1 });
    await flush();
    expect(table.selectedCount).toBe(0);
  });
});
