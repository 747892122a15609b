import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import { useTradesStore } from '../../../src-renderer/src/stores/trades.ts';
import TradesView from '../../../src-renderer/src/views/TradesView.vue';
import { deskHandlers, trade } from '../desk-data.ts';
import { installFakeApi, type FakeApi, type Handlers } from '../fake-api.ts';

const UNUSUAL = {
  name: 'Burning Flames Team Captain', known: true, quality: 'Unusual', color: '#8650AC', effect: 'Burning Flames', killstreak: null,
  wear: null, australium: false, festivized: false, craftable: true,
};

describe('Trades screen', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  async function mountTrades(over: Handlers = {}) {
    fake = installFakeApi(
      deskHandlers({
        'trades:list': () => ({ stamp: 1, checkedAt: Date.now() - 20_000, trades: [
          trade('100', { timestamp: 300 }),
          trade('101', { timestamp: 100, needsAction: true, status: 'Action Required', verification_code: 'K7QX', youngPartner: true, partnerAgeDays: 3.5 }),
          trade('102', { timestamp: 200, needsAction: true, status: 'Action Required' }),
          trade('200', { trade_type: 'buy_order', status: 'confirmation_required', needsAction: true, supplier_linked_account: null } as never),
          trade('103', { timestamp: 50, items: [{ name: 'Burning Flames Team Captain', sku: '378;5;u13', quantity: 1, price: 90000, quality: 'Unusual', image_url: '', particle_url: '13', item: UNUSUAL }] }),
        ] }),
        'trades:openOffer': () => ({ ok: true }),
        ...over,
      }),
    );
    const wrapper = mount(TradesView, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    useTradesStore().start();
    await useSettingsStore().load();
    await flushPromises();
    return wrapper;
  }

  it('lists trades needing action first, newest first, each status in the desk’s one wording with what to do', async () => {
    const wrapper = await mountTrades();
    const cards = wrapper.findAll('article');
    expect(cards.map((c) => c.attributes('data-trade-id'))).toEqual(['102', '101', '100', '103']);
    expect(cards[0]?.get('.badge').text()).toBe('Action required');
    expect(cards[0]?.text()).toContain('You sold: accept the trade offer.');
    expect(cards[2]?.get('.badge').text()).toBe('Waiting for the seller');
    // The trade offer's raw state in words, never "raw SENT".
    expect(cards[2]?.text()).toContain('Trade offer sent');
    expect(cards[2]?.text()).not.toMatch(/raw|SENT/);
  });

  it('names each item in its quality’s colour with what sets it apart, the SKU beside it', async () => {
    const wrapper = await mountTrades();
    const item = wrapper.get('[data-trade-id="103"] .items li');
    expect(item.text()).toContain('Burning Flames Team Captain');
    // The effect is in the name already; the details say the quality, not the effect twice.
    expect(item.get('.details').text()).toBe('Unusual');
    expect(item.text()).toContain('378;5;u13');
    expect(item.get('.dot').attributes('style')?.toLowerCase()).toContain('#8650ac');
  });

  it('says while checking that the check waits for the once-a-minute slot, and when it is free', async () => {
    let release: () => void = () => undefined;
    const wrapper = await mountTrades({ 'trades:checkNow': () => new Promise((resolve) => (release = () => resolve({ stamp: 2, trades: [], checkedAt: Date.now() }))) });
    await wrapper.get('.view-head button').trigger('click');
    await flushPromises();
    expect(wrapper.get('#check-slot').text()).toMatch(/One read a minute is allowed: waiting for the next slot, in about \d+ s\./);
    release();
    await flushPromises();
    expect(wrapper.get('#check-slot').text()).toMatch(/Checked (just now|\d+ s ago)/);
  });

  it('shows the verification code, the total and a warning for a young partner account', async () => {
    const wrapper = await mountTrades();
    const young = wrapper.get('[data-trade-id="101"]');
    expect(young.text()).toContain('K7QX');
    expect(young.text()).toContain('$45.99');
    expect(young.text()).toContain('3 days old');
    expect(young.get('[role=note]').text()).toContain('under 30 days');
  });

  it('says what to check of a young partner, and opens the partner\'s Steam, backpack.tf and SteamRep pages in the browser', async () => {
    const partner = '76561198012345678';
    const wrapper = await mountTrades({
      'trades:list': () => ({ stamp: 1, checkedAt: Date.now(), trades: [trade('101', { needsAction: true, status: 'Action Required', youngPartner: true, partnerAgeDays: 3.5, buyer_id: partner })] }),
      'trades:openPartnerPage': () => ({ ok: true }),
    });
    const card = wrapper.get('[data-trade-id="101"]');
    expect(card.get('[role=note]').text().replace(/\s+/g, ' ')).toBe(
      'Young account (under 30 days): before accepting, check its Steam profile for its age and a trade hold, its trades on backpack.tf, and SteamRep for a scammer mark',
    );
    for (const label of ['Steam profile', 'backpack.tf', 'SteamRep']) await card.get(`button[aria-label="${label} of partner ${partner}"]`).trigger('click');
    await flushPromises();
    expect(fake.callsTo('trades:openPartnerPage')).toEqual([{ id64: partner, site: 'steam' }, { id64: partner, site: 'backpack' }, { id64: partner, site: 'steamrep' }]);
  });

  it('never asks to accept an offer that waits for a mobile confirmation: the next step and the offer\'s state agree', async () => {
    const wrapper = await mountTrades({
      'trades:list': () => ({ stamp: 1, checkedAt: Date.now(), trades: [trade('101', { needsAction: true, status: 'Action Required', raw_status: 'CONFIRMATION_REQUIRED' })] }),
    });
    const text = wrapper.get('[data-trade-id="101"]').text();
    expect(text).toContain('You sold: confirm the trade offer in the mobile authenticator.');
    expect(text).not.toContain('accept the trade offer');
    expect(text).toContain('Trade offer waits for mobile confirmation');
  });

  it('keeps buy-order trades in their own tab', async () => {
    const wrapper = await mountTrades();
    const tabs = wrapper.findAll('[role=tab]');
    expect(tabs[1]?.text()).toContain('1 need action');
    await tabs[1]?.trigger('click');
    expect(wrapper.findAll('article').map((c) => c.attributes('data-trade-id'))).toEqual(['200']);
    expect(wrapper.get('article .badge').text()).toBe('Confirm on mobile');
  });

  it('shows the trade a new window was opened at, once the trades are listed (a notification clicked while in the tray)', async () => {
    location.hash = '#/trades?trade=200';
    try {
      const wrapper = await mountTrades();
      // The buy-order tab, where that trade is.
      expect(wrapper.findAll('article').map((c) => c.attributes('data-trade-id'))).toEqual(['200']);
    } finally {
      location.hash = '';
    }
  });

  it('asks main to open the trade offer in the browser', async () => {
    const wrapper = await mountTrades();
    await wrapper.get('[data-trade-id="101"] button').trigger('click');
    await flushPromises();
    expect(fake.callsTo('trades:openOffer')).toEqual([{ tradeId: '101' }]);
  });
});
