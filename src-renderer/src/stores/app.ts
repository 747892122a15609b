import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call, onEvent } from '../bridge/api.ts';
import { tradeIdFromHash } from '../../../src-shared/navigation.ts';
import { hashFor, normalizeView, viewFromHash, type ViewId } from '../lib/nav.ts';
import { createMirror } from './mirror.ts';

/**
 * App-wide state: mode (sandbox/live), online, version, what is wrong with
 * the service as configured, and which screen is shown. Navigation lives in
 * the URL hash so a reload keeps the screen.
 */
export const useAppStore = defineStore('app', () => {
  const mirror = createMirror(() => call('app:status', {}), 'app:status');
  const view = ref<ViewId>(viewFromHash(location.hash));
  /** A trade main asked us to show (notification click): by event, or in the hash of a window it opened for it. */
  const focusTradeId = ref<string | null>(tradeIdFromHash(location.hash));
  /** An unknown outcome to bring into view on the Drafts screen (from Check ledger). */
  const focusOutcomeId = ref<string | null>(null);
  let started = false;

  const status = mirror.value;
  const sandbox = computed(() => status.value?.mode === 'sandbox');
  const online = computed(() => status.value?.online ?? true);

  function navigate(next: ViewId): void {
    view.value = next;
    const hash = hashFor(next);
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  /** Subscribes once to the events this store mirrors. */
  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
    onEvent('app:navigate', (target) => {
      const id = normalizeView(target.view);
      if (id) navigate(id);
      if (target.tradeId !== undefined) focusTradeId.value = target.tradeId;
    });
    window.addEventListener('hashchange', () => {
      view.value = viewFromHash(location.hash);
    });
  }

  return { status, view, focusTradeId, focusOutcomeId, sandbox, online, navigate, load: mirror.load, start };
});
