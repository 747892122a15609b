import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call } from '../bridge/api.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/**
 * The last balance read (with when it was read) and how reading it goes
 * (retrying after a failure, when, and why). `refresh` spends one of the two
 * balance requests a minute allows, so it is a deliberate button.
 */
export const useBalanceStore = defineStore('balance', () => {
  const mirror = createMirror(() => call('balance:get', {}), 'balance:changed');
  const refreshing = ref(false);
  let started = false;

  const balance = computed(() => mirror.value.value?.reading ?? null);
  const read = computed(() => mirror.value.value?.read ?? null);
  /** Reads it now (up to 30 s); throws DeskError, for a card that shows the failure beside its button. */
  const refreshNow = async () => {
    refreshing.value = true;
    try {
      mirror.accept(await call('balance:refresh', {}));
    } finally {
      refreshing.value = false;
    }
  };
  /** The same, with a failure shown as a notice. */
  const refresh = () => guarded(null, refreshNow);

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { balance, read, refreshing, refresh, refreshNow, start };
});
