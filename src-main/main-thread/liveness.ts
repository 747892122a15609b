/**
 * How main tells a worker that stopped answering (a busy loop, a step that
 * never ends) from one that is merely busy: it pings the worker, which
 * answers as soon as its event loop turns; a ping left unanswered past
 * `hangAfterMs` means the thread is not coming back. Found within
 * `pingEveryMs + hangAfterMs` of the moment it stopped.
 */
export interface Liveness {
  /** A ping goes this long after the last was answered. */
  readonly pingEveryMs: number;
  /** A ping unanswered this long means the worker stopped answering. */
  readonly hangAfterMs: number;
}

/**
 * Long enough that no step of the desk's own work is taken for a hang: today
 * a single step can hold the worker for tens of seconds on a very large
 * profile (the first page of a 500,000-listing ledger read whole, a
 * 1,000,000-row CSV), and a worker ended in the middle of one would only
 * meet the same step again. A minute is far inside the 10 minutes a
 * heartbeat mark lasts, so a hung worker is replaced before the mark runs out.
 */
export const DEFAULT_LIVENESS: Liveness = { pingEveryMs: 2_000, hangAfterMs: 60_000 };

export interface LivenessWatch {
  /** The worker answered the ping under way. */
  pong(): void;
  stop(): void;
}

/** Pings through `port` while `current()` holds; calls `onHang` once, with how long the worker was silent. */
export function watchLiveness(
  port: { postMessage(value: unknown): void },
  liveness: Liveness,
  on: { current(): boolean; onHang(silentMs: number): void },
): LivenessWatch {
  let seq = 0;
  let hang: ReturnType<typeof setTimeout> | undefined;
  let next: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const ping = () => {
    if (stopped || !on.current()) return;
    // A duration: measured on the monotonic clock, which a wall-clock step does not move.
    const sentAt = performance.now();
    hang = setTimeout(() => {
      if (stopped || !on.current()) return;
      stopped = true;
      on.onHang(Math.round(performance.now() - sentAt));
    }, liveness.hangAfterMs);
    hang.unref?.();
    port.postMessage({ ping: ++seq });
  };
  const schedule = () => {
    next = setTimeout(ping, liveness.pingEveryMs);
    next.unref?.();
  };
  schedule();
  return {
    pong() {
      clearTimeout(hang);
      if (!stopped) schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(hang);
      clearTimeout(next);
    },
  };
}
