import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call } from '../bridge/api.ts';
import { createMirror } from './mirror.ts';

/**
 * Whether an API key is set, its last four characters, the service's
 * verdict and what the last "Test key" found: all the renderer ever knows of
 * it, as main last said it. The key itself passes through `set` once, to
 * main, and is not kept in any state here.
 */
export const useKeyStore = defineStore('key', () => {
  const mirror = createMirror(() => call('key:status', {}), 'key:status');
  const busy = ref(false);
  const testing = ref(false);
  let started = false;

  async function run(flag: typeof busy, work: () => Promise<void>): Promise<void> {
    flag.value = true;
    try {
      await work();
    } finally {
      flag.value = false;
    }
  }

  /** Throws DeskError for the form to word; the caller clears its input. */
  const set = (key: string) => run(busy, async () => void mirror.accept(await call('key:set', { key })));
  const remove = () => run(busy, async () => void mirror.accept(await call('key:remove', {})));
  /** Asks the service once with the stored key (up to 30 s); the result arrives in the status. Throws DeskError. */
  const test = () => run(testing, async () => void mirror.accept(await call('key:test', {})));
  /** What the last test found, until the key changes. */
  const lastTest = computed(() => mirror.value.value?.test ?? null);

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { status: mirror.value, busy, testing, lastTest, load: mirror.load, set, remove, test, start };
});
