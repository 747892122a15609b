import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TradeUrlEditor from '../../../src-renderer/src/components/TradeUrlEditor.vue';
import { partnerOf } from '../../../src-shared/trade-url.ts';
import { accounts, LINKED, MAIN } from '../desk-data.ts';
import { installFakeApi, type FakeApi } from '../fake-api.ts';

const urlFor = (id64: string) => `https://steamcommunity.com/tradeoffer/new/?partner=${partnerOf(id64) ?? ''}&token=AbCd_12x`;
const GOOD = urlFor(LINKED);

describe('trade URL editor', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  function mountFor(account: string | null) {
    fake = installFakeApi({ 'accounts:setTradeUrl': () => accounts });
    return mount(TradeUrlEditor, {
      props: { account, owner: account ?? MAIN, current: null, label: 'x' },
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
    // The main account's URL is another account's for this linked one: said, and not saved.
    await input.setValue(urlFor(MAIN));
    expect(wrapper.text()).toMatch(/partner \d+ is another account’s/);
    expect(save().attributes('disabled')).toBeDefined();
    await input.setValue(GOOD.replace('steamcommunity.com', 'evil.example'));
    expect(wrapper.text()).toContain('The host must be steamcommunity.com, not evil.example.');
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
    await wrapper.get('input').setValue(urlFor(MAIN));
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('accounts:setTradeUrl')).toEqual([{ tradeUrl: urlFor(MAIN) }]);
  });
});
