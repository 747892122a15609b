import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { UpdateView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../bridge/api.ts';

/**
 * The app's own update as main last said it (checking, downloading, ready,
 * refused…), for the banner and Settings. Main pushes every change; `load`
 * asks once, for a screen that shows it before any push came.
 */
export const useUpdatesStore = defineStore('updates', () => {
  const update = shallowRef<UpdateView | null>(null);
  let following = false;

  /** Follows main's pushes; once, whoever calls it first. */
  function follow(): void {
    if (following) return;
    following = true;
    onEvent('updates:state', (view) => (update.value = view));
  }

  /** Asks main; a failure leaves what is shown (nothing here to act on). */
  const load = () => call('updates:state', {}).then((view) => void (update.value = view), () => undefined);

  /** Looks for an update now; throws DeskError for the caller to word. */
  const check = async () => void (update.value = await call('updates:check', {}));

  /** Restarts into the downloaded update (main waits for a running apply); a failure leaves what is shown. */
  async function restart(): Promise<void> {
    update.value = await call('updates:restart', {}).catch(() => update.value);
  }

  return { update, follow, load, check, restart };
});
