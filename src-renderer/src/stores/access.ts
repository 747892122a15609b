import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { AccessView } from '../../../src-shared/access.ts';
import { call } from '../bridge/api.ts';

/**
 * Who may reach the desk, as main answers it: in the desktop app nothing
 * (`shell: 'desktop'`); on the server how it is reached (the red warning
 * when in the clear), its bearer tokens, the password and signing out.
 * Changes throw DeskError for the screen to word.
 */
export const useAccessStore = defineStore('access', () => {
  const view = shallowRef<AccessView | null>(null);
  const server = computed(() => (view.value?.shell === 'server' ? view.value : null));
  let loading: Promise<void> | null = null;

  /** Asks main once, whoever asks first; a failure leaves nothing shown (it is asked again next time). */
  function load(): Promise<void> {
    loading ??= call('access:state', {}).then((v) => void (view.value = v), () => void (loading = null));
    return loading;
  }

  /** A new bearer token: returned for the screen to show once; main keeps only its hash. */
  async function createToken(name: string): Promise<string> {
    const made = await call('access:createToken', { name });
    view.value = made.view;
    return made.token;
  }

  const revokeToken = async (id: string) => void (view.value = await call('access:revokeToken', { id }));

  /** Every session ends with it, this page's too: the socket closes and the page goes to sign in. */
  const changePassword = async (current: string, next: string) => void (await call('access:changePassword', { current, next }));

  const signOut = async () => void (await call('access:signOut', {}));

  return { view, server, load, createToken, revokeToken, changePassword, signOut };
});
