import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AppStatus } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { hashFor, normalizeView, viewFromHash, type ViewId } from '../lib/nav.ts';
import { loadQuietly } from './guarded.ts';

/**
 * App-wide state: mode (sandbox/live), online, version, and which screen is
 * shown. Navigation lives in the URL hash so a reload keeps the screen.
 */
export const useAppStore = defineStore('app', () => {
  const status = ref<AppStatus | null>(null);
  const view = ref<ViewId>(viewFromHash(location.hash));
  /** A trade main asked us to show (notification click). */
  const focusTradeId = ref<string | null>(null);
  let started = false;

  const sandbox = computed(() => status.value?.mode === 'sandbox');
  const online = computed(() => status.value?.online ?? true);

  function navigate(next: ViewId): void {
    view.value = next;
    const hash = hashFor(next);
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  async function load(): Promise<void> {
    status.value = await call('app:status', {});
  }

  /** Subscribes once to the events this store mirrors. */
  function start(): void {
    if (started) return;
    started = true;
    onEvent('app:status', (s) => (status.value = s));
    onEvent('app:navigate', (target) => {
      const id = normalizeView(target.view);
      if (id) navigate(id);
      if (target.tradeId !== undefined) focusTradeId.value = target.tradeId;
    });
    window.addEventListener('hashchange', () => {
      view.value = viewFromHash(location.hash);
    });
    loadQuietly(load);
  }

  return { status, view, focusTradeId, sandbox, online, navigate, load, start };
});
