import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TradeUrlEditor from '../../../src-renderer/src/components/TradeUrlEditor.vue';
import { accounts, LINKED } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const GOOD = 'https://steamcommunity.com/tradeoffer/new/?partner=39734273&token=AbCd_12';

describe('trade URL editor', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  function mountFor(account: string | null) {
    fake = installFakeApi({ 'accounts:setTradeUrl': () => accounts });
    return mount(TradeUrlEditor, {
      props: { account, current: null, label: 'x' },
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
    });
  }

  it('checks the URL as it is typed and only then allows saving', async () => {
    const wrapper = mountFor(LINKED);
    await wrapper.get('button').trigger('click');
    const input = wrapper.get('input');
    const save = () => wrapper.get('button[type=submit]');
    await input.setValue('http://steamcommunity.com/tradeoffer/new/?partner=1&token=a');
    expect(wrapper.text()).toContain('https://');
    expect(input.attributes('aria-invalid')).toBe('true');
    expect(save().attributes('disabled')).toBeDefined();
    await input.setValue(GOOD);
    expect(wrapper.text()).toContain('Looks right.');
    expect(save().attributes('disabled')).toBeUndefined();
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('accounts:setTradeUrl')).toEqual([{ account: LINKED, tradeUrl: GOOD }]);
  });

  it('leaves the account out for the main account', async () => {
    const wrapper = mountFor(null);
    await wrapper.get('button').trigger('click');
    await wrapper.get('input').setValue(GOOD);
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('accounts:setTradeUrl')).toEqual([{ tradeUrl: GOOD }]);
  });
});
