import { defineStore } from 'pinia';
import { ref } from 'vue';
import { call } from '../api.ts';
import { createMirror } from './mirror.ts';

/**
 * Whether an API key is set, its last four characters and the service's
 * verdict: all the renderer ever knows of it, as main last said it. The key
 * itself passes through `set` once, to main, and is not kept in any state here.
 */
export const useKeyStore = defineStore('key', () => {
  const mirror = createMirror(() => call('key:status', {}), 'key:status');
  const busy = ref(false);
  let started = false;

  async function run(work: () => Promise<void>): Promise<void> {
    busy.value = true;
    try {
      await work();
    } finally {
      busy.value = false;
    }
  }

  /** Throws DeskError for the form to word; the caller clears its input. */
  const set = (key: string) => run(async () => void mirror.accept(await call('key:set', { key })));
  const remove = () => run(async () => void mirror.accept(await call('key:remove', {})));

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { status: mirror.value, busy, load: mirror.load, set, remove, start };
});
