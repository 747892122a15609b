import { describe, expect, it } from 'vitest';
import { createDeskRouter } from '../../src-main/ipc/routers/desk-router.ts';
import { liveDeskFixture } from '../support/live-desk.ts';

const start = liveDeskFixture();

describe('ledger:check over the bridge', () => {
  it('re-reads the trades and balance and answers the rows in doubt: a listing sold in a pending trade', async () => {
    const { sandbox, desk } = await start(300);
    const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
    const ws = desk.workspace();
    while (!ws.accounts.snapshot().main) await new Promise((r) => setTimeout(r, 5));
    const [listed] = sandbox.admin.seedListings(1);
    ws.repos.listings.upsert({ asset_id: listed?.asset_id ?? '', listing_id: listed?.listing_id ?? '', sku: listed?.sku ?? '', price: listed?.price ?? 1, promoted: 0, game: '440', account: sandbox.accounts.main });
    sandbox.admin.setListingState(listed?.listing_id ?? '', 'sold');
    const trade = sandbox.admin.addTrade({
      trade_type: 'market', role: 'seller', supplier_id: sandbox.accounts.main, status: 'Action Required',
      items: [{ name: 'x', sku: listed?.sku ?? '', quantity: 1, price: listed?.price ?? 1, quality: 'Unique', image_url: '', particle_url: '' }],
    });

    const result = await router.invoke('ledger:check', {});
    expect(result).toMatchObject({ ok: true, value: { trades: { ok: true }, rows: [{ kind: 'listing', key: listed?.asset_id, state: 'sold_in_trade', tradeId: trade.trade_id }] } });
  });
});
