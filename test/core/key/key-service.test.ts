import { describe, expect, it } from 'vitest';
import { createKeyService, type KeyStatus } from '../../../src-main/core/key/key-service.ts';
import { memoryKeychain } from '../../support/memory-keychain.ts';

const KEY = 'sk_live_9f8e7d6c5b4a3210';

describe('key service', () => {
  it('tells only whether a key is set and its last four characters', async () => {
    const keychain = memoryKeychain();
    const keys = createKeyService({ secrets: keychain, profile: 'default' });
    expect(await keys.status()).toEqual({ set: false, last4: null, state: 'none', keychainAvailable: true });
    const status = await keys.set(`  ${KEY}\n`);
    expect(status).toEqual({ set: true, last4: '3210', state: 'unverified', keychainAvailable: true });
    expect(JSON.stringify(status)).not.toContain(KEY.slice(0, 8));
    expect(await keys.read()).toBe(KEY);
  });

  it('keeps one key per profile in the keychain', async () => {
    const keychain = memoryKeychain();
    await createKeyService({ secrets: keychain, profile: 'a' }).set('key-for-profile-a');
    await createKeyService({ secrets: keychain, profile: 'b' }).set('key-for-profile-b');
    expect(await createKeyService({ secrets: keychain, profile: 'a' }).read()).toBe('key-for-profile-a');
    expect(keychain.entries.size).toBe(2);
  });

  it('follows the service verdict and announces it', async () => {
    const keys = createKeyService({ secrets: memoryKeychain(), profile: 'default' });
    const seen: KeyStatus['state'][] = [];
    keys.on('status', (s) => seen.push(s.state));
    await keys.set(KEY);
    keys.noteRejected();
    await new Promise((r) => setTimeout(r, 0));
    expect((await keys.status()).state).toBe('rejected');
    await keys.set('sk_live_replacement_0001');
    expect((await keys.status()).state).toBe('unverified');
    keys.noteAccepted();
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['unverified', 'rejected', 'unverified', 'valid']);
  });

  it('refuses a malformed key without touching the stored one', async () => {
    const keychain = memoryKeychain();
    const keys = createKeyService({ secrets: keychain, profile: 'default' });
    await keys.set(KEY);
    await expect(keys.set('has a space in it')).rejects.toMatchObject({ kind: 'invalid' });
    await expect(keys.set('short')).rejects.toThrow(/too short/);
    expect(await keys.read()).toBe(KEY);
  });

  it('refuses to store the key when no keychain answers, and says so', async () => {
    const keychain = memoryKeychain(false);
    const keys = createKeyService({ secrets: keychain, profile: 'default' });
    await expect(keys.set(KEY)).rejects.toMatchObject({ kind: 'keychain_unavailable' });
    expect(keychain.entries.size).toBe(0);
    expect(await keys.status()).toMatchObject({ set: false, keychainAvailable: false, keychainProblem: 'missing' });
  });

  it('says the keychain is locked and how to unlock it, for the status, a save and a removal', async () => {
    const keychain = memoryKeychain('locked');
    const keys = createKeyService({ secrets: keychain, profile: 'default' });
    expect(await keys.status()).toEqual({ set: false, last4: null, state: 'none', keychainAvailable: false, keychainProblem: 'locked' });
    await expect(keys.set(KEY)).rejects.toMatchObject({ kind: 'keychain_unavailable', message: expect.stringMatching(/^The system keychain is locked, so the key was not stored\. Unlock it/) });
    await expect(keys.remove()).rejects.toMatchObject({ kind: 'keychain_unavailable', message: expect.stringMatching(/locked, so the key was not removed/) });
    expect(keychain.entries.size).toBe(0);
    expect(await keys.read()).toBeNull();
  });

  it('words a keychain that fails while saving as keychain_unavailable, never a bare error', async () => {
    const keychain = memoryKeychain();
    let locked = false;
    const flaky = {
      ...keychain,
      state: async () => (locked ? ('locked' as const) : ('available' as const)),
      set: async () => {
        locked = true; // locked between the check and the write, as a screen lock does
        throw new Error('The system keychain could not store the key: Cannot create an item in a locked collection');
      },
    };
    const keys = createKeyService({ secrets: flaky, profile: 'default' });
    const error = await keys.set(KEY).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'keychain_unavailable', message: expect.stringMatching(/keychain is locked.*\(The system keychain could not store the key: Cannot create an item in a locked collection\)$/) });
    expect(String((error as Error).message)).not.toContain(KEY);
  });

  it('removes the key', async () => {
    const keys = createKeyService({ secrets: memoryKeychain(), profile: 'default' });
    await keys.set(KEY);
    expect(await keys.remove()).toMatchObject({ set: false, last4: null, state: 'none' });
    expect(await keys.read()).toBeNull();
  });
});
