import { createTestingPinia } from '@pinia/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import KeySection from '../../../src-renderer/src/components/KeySection.vue';
import { useAppStore } from '../../../src-renderer/src/stores/app.ts';
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

  it('says the keychain is locked and how to unlock it, and “Check again” reads the status afresh', async () => {
    let keychain: 'locked' | 'available' = 'locked';
    fake = installFakeApi({
      'key:status': () => (keychain === 'locked'
        ? { stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: false, keychainProblem: 'locked' }
        : { stamp: 2, set: true, last4: '1234', state: 'unverified', keychainAvailable: true }),
    });
    const wrapper = mount(KeySection, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useKeyStore().load();
    await flushPromises();
    const problem = wrapper.get('[data-testid=keychain-problem]');
    expect(problem.text()).toContain('The system keychain is locked');
    expect(problem.text()).toContain('Unlock it (on Linux: the Login keyring in Passwords and Keys');
    expect(wrapper.get('button.primary').attributes('disabled')).toBeDefined();
    keychain = 'available';
    await problem.get('button').trigger('click');
    await flushPromises();
    expect(fake.callsTo('key:status').length).toBeGreaterThanOrEqual(2);
    expect(wrapper.find('[data-testid=keychain-problem]').exists()).toBe(false);
    expect(wrapper.get('[data-testid=key-status]').text()).toContain('••1234');
  });

  it('says no keychain answers, and where to get one, when it is missing', async () => {
    fake = installFakeApi({ 'key:status': () => ({ stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: false, keychainProblem: 'missing' }) });
    const wrapper = mount(KeySection, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useKeyStore().load();
    await flushPromises();
    expect(wrapper.get('[data-testid=keychain-problem]').text()).toContain('No system keychain answers (on Linux: no Secret Service such as GNOME Keyring or KWallet is running)');
  });

  it('tests a key as soon as it is saved and says what the service found; Test key asks again', async () => {
    const tested = { outcome: 'accepted' as const, serviceUrl: 'https://api.liquid.tf', mode: 'live' as const, last4: '1234', testedAt: Date.now(), answeredAt: Date.now(), mainAccount: '76561198000000001', linkedAccounts: ['76561198000000002'], balance: { balance: 123_456, pending_balance: 500 }, problem: null, unreachableWhy: null };
    fake = installFakeApi({
      'key:status': () => ({ stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true }),
      'key:set': ({ key }) => ({ stamp: 2, set: true, last4: key.slice(-4), state: 'unverified', keychainAvailable: true }),
      'key:test': () => ({ stamp: 3, set: true, last4: '1234', state: 'valid', keychainAvailable: true, test: tested }),
    });
    const wrapper = mount(KeySection, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await wrapper.get('input#api-key').setValue(SECRET);
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(fake.callsTo('key:test')).toHaveLength(1);
    const result = wrapper.get('[data-testid=key-test]');
    expect(result.text()).toContain('The key ending ••1234 works: api.liquid.tf accepted it.');
    expect(result.text()).toContain('Account 76561198000000001');
    expect(result.text()).toContain('Balance $1,234.56 (pending $5.00)');
    expect(result.text()).toContain('1 linked account: 76561198000000002');
    expect(wrapper.get('[data-testid=key-status]').text()).toContain('accepted by the service');
    await wrapper.findAll('button').find((b) => b.text() === 'Test key')?.trigger('click');
    await flushPromises();
    expect(fake.callsTo('key:test')).toHaveLength(2);
    expect(wrapper.html()).not.toContain('9f8e7d6c');
  });

  it('words each thing a test can find: rejected, unreachable, no key', async () => {
    const base = { serviceUrl: 'https://api.liquid.tf', mode: 'sandbox' as const, last4: '1234', testedAt: 1, answeredAt: null, mainAccount: null, linkedAccounts: [], balance: null, problem: null, unreachableWhy: null };
    let test: Record<string, unknown> = { ...base, outcome: 'rejected', problem: { kind: 'auth', message: 'refused', status: 401 } };
    fake = installFakeApi({
      'key:status': () => ({ stamp: 1, set: true, last4: '1234', state: 'unverified', keychainAvailable: true }),
      'key:test': () => ({ stamp: 2, set: true, last4: '1234', state: 'unverified', keychainAvailable: true, test: test as never }),
      'app:status': () => ({ stamp: 1, mode: 'sandbox', online: true, version: 't', profile: 'default', serviceUrl: 'http://127.0.0.1:5', serviceProblem: null, reach: { state: 'reachable', why: null, since: null } }),
    });
    const wrapper = mount(KeySection, { global: { plugins: [createTestingPinia({ createSpy: vi.fn, stubActions: false })] } });
    await useKeyStore().load();
    await useAppStore().load();
    const testKey = async () => {
      await wrapper.findAll('button').find((b) => b.text() === 'Test key')?.trigger('click');
      await flushPromises();
      return wrapper.get('[data-testid=key-test]').text();
    };
    expect(await testKey()).toContain('api.liquid.tf refused the key ending ••1234.');
    test = { ...base, outcome: 'unreachable', unreachableWhy: 'host not found', problem: { kind: 'network', message: 'x' } };
    const unreachable = await testKey();
    expect(unreachable).toContain('Could not reach api.liquid.tf: host not found.');
    expect(unreachable).toContain('The desk stays in sandbox mode: this key is used once you go live.');
    test = { ...base, last4: null, outcome: 'no_key' };
    const none = await testKey();
    expect(none).toContain('No API key is stored yet');
    expect(none).toContain('liquid.tf under Dashboard → Settings → API');
    expect(none).not.toMatch(/rejected|refused/);
  });
});
