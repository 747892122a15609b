import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { HeartbeatView, SchedulerView } from '../../../src-preload/contract.ts';
import { call, onEvent } from '../api.ts';
import { useNoticesStore } from './notices.ts';

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

  async function beatNow(): Promise<void> {
    busy.value = true;
    try {
      heartbeat.value = await call('heartbeat:beatNow', {});
    } catch (err) {
      useNoticesStore().error(err);
    } finally {
      busy.value = false;
    }
  }

  async function setEnabled(enabled: boolean): Promise<void> {
    busy.value = true;
    try {
      heartbeat.value = await call('automation:setEnabled', { enabled });
    } catch (err) {
      useNoticesStore().error(err);
    } finally {
      busy.value = false;
    }
  }

  function start(): void {
    if (started) return;
    started = true;
    onEvent('heartbeat:state', (s) => (heartbeat.value = s));
    onEvent('scheduler:state', (s) => (scheduler.value = s));
    void load().catch((err: unknown) => useNoticesStore().error(err));
  }

  return { heartbeat, scheduler, busy, load, beatNow, setEnabled, start };
});
