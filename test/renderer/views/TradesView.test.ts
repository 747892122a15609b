import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSettingsStore } from '../../../src-renderer/src/stores/settings.ts';
import { useTradesStore } from '../../../src-renderer/src/stores/trades.ts';
import TradesView from '../../../src-renderer/src/views/TradesView.vue';
import { deskHandlers, trade } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

describe('Trades screen', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  async function mountTrades() {
    fake = installFakeApi(
      deskHandlers({
        'trades:list': () => ({ stamp: 1, trades: [
          trade('100', { timestamp: 300 }),
          trade('101', { timestamp: 100, needsAction: true, status: 'Action Required', verification_code: 'K7QX', youngPartner: true, partnerAgeDays: 3.5 }),
          trade('102', { timestamp: 200, needsAction: true, status: 'Action Required' }),
          trade('200', { trade_type: 'buy_order', status: 'confirmation_required', needsAction: true, supplier_linked_account: null } as never),
        ] }),
        'trades:openOffer': () => ({ ok: true }),
      }),
    );
    const wrapper = mount(TradesView, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    useTradesStore().start();
    await useSettingsStore().load();
    await flushPromises();
    return wrapper;
  }

  it('lists trades needing action first, newest first, with the service’s exact status wording', async () => {
    const wrapper = await mountTrades();
    const cards = wrapper.findAll('article');
    expect(cards.map((c) => c.attributes('data-trade-id'))).toEqual(['102', '101', '100']);
    expect(cards[0]?.get('.badge').text()).toBe('Action Required');
    expect(cards[2]?.get('.badge').text()).toBe('Waiting for seller');
  });

  it('shows the verification code, the total and a warning for a young partner account', async () => {
    const wrapper = await mountTrades();
    const young = wrapper.get('[data-trade-id="101"]');
    expect(young.text()).toContain('K7QX');
    expect(young.text()).toContain('$45.99');
    expect(young.text()).toContain('3 days old');
    expect(young.get('[role=note]').text()).toContain('under 30 days');
  });

  it('keeps buy-order trades in their own tab', async () => {
    const wrapper = await mountTrades();
    const tabs = wrapper.findAll('[role=tab]');
    expect(tabs[1]?.text()).toContain('1 need action');
    await tabs[1]?.trigger('click');
    expect(wrapper.findAll('article').map((c) => c.attributes('data-trade-id'))).toEqual(['200']);
    expect(wrapper.get('article .badge').text()).toBe('confirmation_required');
  });

  it('asks main to open the trade offer in the browser', async () => {
    const wrapper = await mountTrades();
    await wrapper.get('[data-trade-id="101"] button').trigger('click');
    await flushPromises();
    expect(fake.callsTo('trades:openOffer')).toEqual([{ tradeId: '101' }]);
  });
});
