import { defineStore } from 'pinia';
import { ref } from 'vue';
import { call } from '../api.ts';
import { guarded } from './guarded.ts';
import { createMirror } from './mirror.ts';

/**
 * The automation state: the heartbeat (active/expiring/lapsed/off,
 * refresh_at, which accounts it covers) and the scheduler's view of the rate
 * budget, each as main last said it.
 */
export const useAutomationStore = defineStore('automation', () => {
  const heartbeat = createMirror(() => call('heartbeat:state', {}), 'heartbeat:state');
  const scheduler = createMirror(() => call('scheduler:state', {}), 'scheduler:state');
  const busy = ref(false);
  let started = false;

  const beatNow = () => guarded(busy, async () => void heartbeat.accept(await call('heartbeat:beatNow', {})));
  const setEnabled = (enabled: boolean) =>
    guarded(busy, async () => void heartbeat.accept(await call('automation:setEnabled', { enabled })));

  function start(): void {
    if (started) return;
    started = true;
    heartbeat.follow();
    scheduler.follow();
  }

  return { heartbeat: heartbeat.value, scheduler: scheduler.value, busy, beatNow, setEnabled, start };
});
