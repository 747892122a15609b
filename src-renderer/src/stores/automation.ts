import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { HeartbeatView, SchedulerView } from '../../../src-shared/contract.ts';
import { call, onEvent } from '../api.ts';
import { guarded, loadQuietly } from './guarded.ts';

/**
 * The automation state: the heartbeat (active/expiring/lapsed/off, refresh_at,
 * which accounts it covers) and the scheduler's view of the rate budget.
 */
export const useAutomationStore = defineStore('automation', () => {
  const heartbeat = ref<HeartbeatView | null>(null);
  const scheduler = ref<SchedulerView | null>(null);
  const busy = ref(false);
  let started = false;

  async function load(): Promise<void> {
    const [hb, sch] = await Promise.all([call('heartbeat:state', {}), call('scheduler:state', {})]);
    heartbeat.value = hb;
    scheduler.value = sch;
  }

  const beatNow = () => guarded(busy, async () => (heartbeat.value = await call('heartbeat:beatNow', {})));
  const setEnabled = (enabled: boolean) =>
    guarded(busy, async () => (heartbeat.value = await call('automation:setEnabled', { enabled })));

  function start(): void {
    if (started) return;
    started = true;
    onEvent('heartbeat:state', (s) => (heartbeat.value = s));
    onEvent('scheduler:state', (s) => (scheduler.value = s));
    loadQuietly(load);
  }

  return { heartbeat, scheduler, busy, load, beatNow, setEnabled, start };
});
