/**
 * When the renderer process dies (a crash, the OOM killer, a GPU reset) the
 * window turns blank while the main process keeps the heartbeat running: it
 * is reloaded at once. A renderer that dies again and again (a bad page
 * state that crashes it on load) would be reloaded in a tight loop, burning
 * CPU all day in the tray; past a few reloads in a short time it is left
 * down and the log says why.
 */
export interface ReloadBudgetOptions {
  /** Reloads allowed within `withinMs`. Default 3. */
  readonly max?: number;
  /** Default one minute. */
  readonly withinMs?: number;
  /** A monotonic clock (ms): `withinMs` is a duration. */
  readonly now: () => number;
}

export interface ReloadBudget {
  /** Whether this crash may be answered with a reload; counts it when so. */
  take(): boolean;
}

export function createReloadBudget(options: ReloadBudgetOptions): ReloadBudget {
  const max = options.max ?? 3;
  const withinMs = options.withinMs ?? 60_000;
  let recent: number[] = [];
  return {
    take() {
      const now = options.now();
      recent = recent.filter((at) => now - at < withinMs);
      if (recent.length >= max) return false;
      recent.push(now);
      return true;
    },
  };
}
