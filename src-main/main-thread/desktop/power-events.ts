import { net, powerMonitor } from 'electron';

/**
 * After a sleep or a network outage the heartbeat may be close to lapsing and
 * trades may have arrived: beat and check at once instead of waiting for the
 * next tick. Electron reports resume; "back online" has no main-process event,
 * so it is polled (and can be reported by the renderer through `reportOnline`).
 */

export interface PowerEventDeps {
  readonly beatNow: () => Promise<void> | void;
  readonly checkTradesNow: () => Promise<void> | void;
  /** Connectivity as last seen (at start, at each poll that sees a change, at resume). */
  readonly onConnectivity?: (online: boolean) => void;
  readonly onError?: (error: unknown) => void;
  /** How often connectivity is polled. Default 5 s. */
  readonly onlinePollMs?: number;
  /**
   * A second wake within this time is dropped, so a flapping network does not
   * spend the heartbeat's 1-per-minute budget. Default 30 s.
   */
  readonly minGapMs?: number;
  /** A monotonic clock (ms) for that gap; default performance.now. */
  readonly now?: () => number;
}

export type WakeReason = 'resume' | 'online';

export interface PowerEvents {
  /** The renderer saw `online`: same as a detected reconnection. */
  reportOnline(): void;
  dispose(): void;
}

export function wirePowerEvents(deps: PowerEventDeps): PowerEvents {
  const now = deps.now ?? (() => performance.now());
  const minGapMs = deps.minGapMs ?? 30_000;
  let lastWakeAt = Number.NEGATIVE_INFINITY;
  let online = net.isOnline();
  deps.onConnectivity?.(online);
  const see = (next: boolean) => {
    if (next !== online) deps.onConnectivity?.(next);
    online = next;
  };

  const wake = (_reason: WakeReason) => {
    const at = now();
    if (at - lastWakeAt < minGapMs) return;
    lastWakeAt = at;
    for (const job of [deps.beatNow, deps.checkTradesNow]) {
      try {
        Promise.resolve(job()).catch((error: unknown) => deps.onError?.(error));
      } catch (error) {
        deps.onError?.(error);
      }
    }
  };

  const onResume = () => {
    see(net.isOnline());
    // Offline at resume: the reconnection will wake instead, when a request can succeed.
    if (online) wake('resume');
  };
  const pollOnline = () => {
    const was = online;
    see(net.isOnline());
    if (online && !was) wake('online');
  };

  powerMonitor.on('resume', onResume);
  const timer = setInterval(pollOnline, deps.onlinePollMs ?? 5_000);
  return {
    reportOnline() {
      see(true);
      wake('online');
    },
    dispose() {
      clearInterval(timer);
      powerMonitor.off('resume', onResume);
    },
  };
}
