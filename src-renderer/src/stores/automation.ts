import { defineStore } from 'pinia';
import { call } from '../bridge/api.ts';
import { createMirror } from './mirror.ts';

/**
 * The automation state: the heartbeat (active/expiring/lapsed/off,
 * refresh_at, which accounts it covers, how far the service's clock is from
 * ours) and the scheduler's view of the rate budget, each as main last said
 * it. Actions throw DeskError for the card to show beside its buttons.
 */
export const useAutomationStore = defineStore('automation', () => {
  const heartbeat = createMirror(() => call('heartbeat:state', {}), 'heartbeat:state');
  const scheduler = createMirror(() => call('scheduler:state', {}), 'scheduler:state');
  let started = false;

  /** One beat now (up to 30 s: a beat may wait for its once-a-minute slot). */
  const beatNow = async () => void heartbeat.accept(await call('heartbeat:beatNow', {}));
  const setEnabled = async (enabled: boolean) => void heartbeat.accept(await call('automation:setEnabled', { enabled }));

  function start(): void {
    if (started) return;
    started = true;
    heartbeat.follow();
    scheduler.follow();
  }

  return { heartbeat: heartbeat.value, scheduler: scheduler.value, beatNow, setEnabled, start };
});
