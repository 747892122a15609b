import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { call } from '../api.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/**
 * The last balance read (with when it was read). `refresh` spends one of the
 * two balance requests a minute allows, so it is a deliberate button.
 */
export const useBalanceStore = defineStore('balance', () => {
  const mirror = createMirror(() => call('balance:get', {}), 'balance:changed');
  const refreshing = ref(false);
  let started = false;

  const balance = computed(() => mirror.value.value?.reading ?? null);
  const refresh = () => guarded(refreshing, async () => void mirror.accept(await call('balance:refresh', {})));

  function start(): void {
    if (started) return;
    started = true;
    mirror.follow();
  }

  return { balance, refreshing, refresh, start };
});
