import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import KeySection from '../../../src-renderer/src/components/KeySection.vue';
import { useKeyStore } from '../../../src-renderer/src/stores/key.ts';
import { installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

const SECRET = 'mk_9f8e7d6c5b4a1234';

describe('API key section', () => {
  let fake: FakeApi;
  afterEach(() => fake.uninstall());

  function mountWith(set: boolean) {
    fake = installFakeApi({
      'key:status': () => (set ? { stamp: 1, set: true, last4: '1234', state: 'valid', keychainAvailable: true } : { stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true }),
      'key:set': ({ key }) => {
        if (key === 'rejectme-please') throw new Refusal({ kind: 'auth', message: '401', status: 401 });
        return { stamp: 2, set: true, last4: key.slice(-4), state: 'unverified', keychainAvailable: true };
      },
    });
    return mount(KeySection, {
      global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] },
    });
  }

  it('shows only “set, ends in ••1234”', async () => {
    const wrapper = mountWith(true);
    await useKeyStore().load();
    await flushPromises();
    expect(wrapper.get('[data-testid=key-status]').text()).toContain('Set, ends in ••1234');
    expect(wrapper.get('button.primary').text()).toBe('Replace key');
  });

  it('takes the key in a password input and clears it once stored', async () => {
    const wrapper = mountWith(false);
    const input = wrapper.get('input#api-key');
    expect(input.attributes('type')).toBe('password');
    await input.setValue(SECRET);
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('key:set')).toEqual([{ key: SECRET }]);
    expect((input.element as HTMLInputElement).value).toBe('');
    expect(wrapper.html()).not.toContain('9f8e7d6c');
    expect(wrapper.get('[data-testid=key-status]').text()).toContain('••1234');
  });

  it('words a refused key and refuses one too short to be a key before sending', async () => {
    const wrapper = mountWith(false);
    const input = wrapper.get('input#api-key');
    await input.setValue('short');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('key:set')).toHaveLength(0);
    expect(wrapper.get('#key-help').text()).toMatch(/at least 8/);

    await input.setValue('rejectme-please');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(wrapper.get('#key-help').text()).toBe('The API key was rejected — replace it in Settings.');
  });
});
