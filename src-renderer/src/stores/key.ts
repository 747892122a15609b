import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { KeyStatus } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';

/**
 * Whether an API key is set and its last four characters: all the renderer
 * ever knows of it. The key itself passes through `set` once, to main, and is
 * not kept in any state here.
 */
export const useKeyStore = defineStore('key', () => {
  const status = ref<KeyStatus | null>(null);
  const busy = ref(false);
  let started = false;

  async function load(): Promise<void> {
    status.value = await call('key:status', {});
  }

  /** Throws DeskError for the form to word; the caller clears its input. */
  async function set(key: string): Promise<void> {
    busy.value = true;
    try {
      status.value = await call('key:set', { key });
    } finally {
      busy.value = false;
    }
  }

  async function remove(): Promise<void> {
    busy.value = true;
    try {
      status.value = await call('key:remove', {});
    } finally {
      busy.value = false;
    }
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('key:status', (s) => (status.value = s));
    void load().catch(() => undefined);
  }

  return { status, busy, load, set, remove, start };
});
