import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useKeyStore } from '../../../src-renderer/src/stores/key.ts';
import { flush, installFakeApi, Refusal, type FakeApi } from '../fake-api.ts';

const SECRET = 'sk_live_abcdefgh1234';

describe('key store', () => {
  let fake: FakeApi;
  beforeEach(() => {
    setActivePinia(createPinia());
    fake = installFakeApi({
      'key:status': () => ({ stamp: 1, set: false, last4: null, state: 'none', keychainAvailable: true }),
      'key:set': ({ key }) => {
        if (key.length < 12) throw new Refusal({ kind: 'invalid', message: 'too short', issues: [{ field: 'key', message: 'is too short' }] });
        return { stamp: 2, set: true, last4: key.slice(-4), state: 'unverified', keychainAvailable: true };
      },
      'key:remove': () => ({ stamp: 3, set: false, last4: null, state: 'none', keychainAvailable: true }),
    });
  });
  afterEach(() => fake.uninstall());

  it('knows only whether a key is set and its last four characters', async () => {
    const store = useKeyStore();
    await store.set(SECRET);
    expect(store.status).toEqual({ stamp: 2, set: true, last4: '1234', state: 'unverified', keychainAvailable: true });
    // The key went to main once and is held nowhere in the renderer's state.
    expect(JSON.stringify(store.$state)).not.toContain('abcdefgh');
    expect(fake.callsTo('key:set')).toEqual([{ key: SECRET }]);
  });

  it('throws the refusal for the form to word, and leaves the status alone', async () => {
    const store = useKeyStore();
    await store.load();
    await expect(store.set('short')).rejects.toMatchObject({ view: { kind: 'invalid' } });
    expect(store.status?.set).toBe(false);
    expect(store.busy).toBe(false);
  });

  it('follows key:status events from main (e.g. a 401 marks it rejected)', async () => {
    const store = useKeyStore();
    store.start();
    await flush();
    fake.emit('key:status', { stamp: 5, set: true, last4: '9876', state: 'rejected', keychainAvailable: true });
    expect(store.status?.state).toBe('rejected');
  });

  it('keeps the newest of what main said: a reply older than an event it already showed is dropped', async () => {
    const store = useKeyStore();
    store.start();
    await flush();
    // A replaced key was accepted (stamp 7) while the reply to an earlier read (stamp 6) was on its way.
    fake.emit('key:status', { stamp: 7, set: true, last4: '1111', state: 'valid', keychainAvailable: true });
    fake.emit('key:status', { stamp: 6, set: true, last4: '1111', state: 'rejected', keychainAvailable: true });
    expect(store.status?.state).toBe('valid');
  });
});
