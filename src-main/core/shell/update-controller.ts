import type { UpdateView } from '../../../src-shared/updates.ts';
import type { Clock } from '../clock.ts';
import { CHECK_DEADLINE_MS, checkTimedOut } from './update-limits.ts';
import { UpdateRefused } from './update-policy.ts';

/**
 * When to look for an update, what to tell the trader, and when a restart
 * may happen. Updates are checked at start and every few hours, downloaded
 * in the background and verified (the source's job), then announced as
 * "Update ready — restart". A restart never happens while an apply runs:
 * asked for then, it waits for the apply to end.
 */
export interface UpdateSource {
  /**
   * Looks at the feed; the newer version's number, or null when up to date.
   * Rejects with `UpdateRefused` for an older one. Ends its requests when
   * `signal` aborts (the check's deadline), rejecting with the signal's reason.
   */
  check(signal: AbortSignal): Promise<string | null>;
  /**
   * Downloads and verifies the update found; rejects when it cannot, with
   * `UpdateRefused` when the update failed a check (its signature, its
   * checksum, a redirect off the feed) rather than the network.
   */
  download(onProgress: (percent: number) => void): Promise<void>;
}

export interface UpdateControllerDeps {
  /** Null where updates do not apply (a development run, a package type that cannot update itself). */
  readonly source: UpdateSource | null;
  /** Why there is no source, said in the view. */
  readonly unavailableReason?: string;
  /** The trader's setting. */
  readonly enabled: () => boolean;
  readonly applyRunning: () => boolean;
  /** Quits the app cleanly and installs; called at most once. */
  readonly restart: () => void;
  readonly onChange: (view: UpdateView) => void;
  readonly clock: Clock;
  /** Default 4 hours. */
  readonly intervalMs?: number;
  /** The first check, after start settles. Default 30 s. */
  readonly firstCheckMs?: number;
  /** How long a check may take in all, however slowly the feed answers. Default `CHECK_DEADLINE_MS`. */
  readonly checkDeadlineMs?: number;
}

export interface UpdateController {
  view(): UpdateView;
  /** Starts (or, after a settings change, stops or restarts) the periodic checks. */
  refresh(): void;
  /** Checks now (the trader's "Check now"); resolves with the view after it (and any download). */
  checkNow(): Promise<UpdateView>;
  /** The trader's "Restart to update": now, or when the running apply ends. */
  restartToUpdate(): UpdateView;
  /** Told when applies end, so a waiting restart can go. */
  applyEnded(): void;
  stop(): void;
}

export const UPDATE_INTERVAL_MS = 4 * 3_600_000;

export function createUpdateController(deps: UpdateControllerDeps): UpdateController {
  const intervalMs = deps.intervalMs ?? UPDATE_INTERVAL_MS;
  const firstCheckMs = deps.firstCheckMs ?? 30_000;
  const checkDeadlineMs = deps.checkDeadlineMs ?? CHECK_DEADLINE_MS;
  let view: UpdateView = idleView();
  let timer: AbortController | null = null;
  let running: Promise<UpdateView> | null = null;
  let restarted = false;

  const set = (patch: Partial<UpdateView>) => {
    view = { ...view, ...patch };
    deps.onChange(view);
  };
  function idleView(): UpdateView {
    const off = deps.source === null ? (deps.unavailableReason ?? 'Updates are not available in this copy.') : !deps.enabled() ? 'Automatic updates are off.' : null;
    return { state: off ? 'off' : 'idle', version: null, percent: null, restartPending: false, message: off, checkedAt: null };
  }

  const run = async (source: UpdateSource): Promise<UpdateView> => {
    // A verified download stays ready: checking again would download it again.
    if (view.state === 'ready') return view;
    set({ state: 'checking', message: null });
    try {
      const version = await checkWithin(source, checkDeadlineMs);
      set({ checkedAt: deps.clock.now() });
      if (version === null) {
        set({ state: 'idle', version: null, percent: null });
        return view;
      }
      set({ state: 'downloading', version, percent: 0 });
      await source.download((percent) => set({ percent: Math.max(0, Math.min(100, percent)) }));
      set({ state: 'ready', percent: 100 });
    } catch (error) {
      if (error instanceof UpdateRefused) set({ state: 'refused', version: error.version ?? view.version, percent: null, message: error.sentence });
      else set({ state: 'error', percent: null, message: error instanceof Error ? error.message : String(error) });
    }
    return view;
  };

  const checkNow = (): Promise<UpdateView> => {
    if (deps.source === null) return Promise.resolve(view);
    running ??= run(deps.source).finally(() => (running = null));
    return running;
  };

  const schedule = (delayMs: number) => {
    timer?.abort();
    const control = new AbortController();
    timer = control;
    deps.clock.sleep(delayMs, control.signal).then(
      () => {
        if (timer !== control) return;
        void checkNow().then(() => {
          if (timer === control) schedule(intervalMs);
        });
      },
      () => undefined,
    );
  };

  const restartNow = () => {
    if (restarted) return;
    restarted = true;
    deps.restart();
  };

  return {
    view: () => view,
    refresh() {
      const on = deps.source !== null && deps.enabled();
      if (!on) {
        timer?.abort();
        timer = null;
        // A downloaded update stays ready (it installs at quit); otherwise say why nothing happens.
        if (view.state !== 'ready') set(idleView());
        return;
      }
      if (timer !== null) return;
      if (view.state === 'off') set(idleView());
      schedule(firstCheckMs);
    },
    checkNow,
    restartToUpdate() {
      if (view.state !== 'ready') return view;
      if (deps.applyRunning()) {
        set({ restartPending: true });
        return view;
      }
      restartNow();
      return view;
    },
    applyEnded() {
      if (view.restartPending && !deps.applyRunning()) restartNow();
    },
    stop() {
      timer?.abort();
      timer = null;
    },
  };
}

/**
 * The source's check, ended at the deadline: the source is told through the
 * signal (so its requests stop), and the check rejects then even if the source
 * does not. The deadline is wall-clock network time, not the app's clock: a
 * socket does not run faster under a scaled or faked clock.
 */
async function checkWithin(source: UpdateSource, deadlineMs: number): Promise<string | null> {
  const control = new AbortController();
  const deadline = AbortSignal.timeout(deadlineMs);
  const onDeadline = () => control.abort(checkTimedOut(deadlineMs));
  deadline.addEventListener('abort', onDeadline, { once: true });
  const expired = new Promise<never>((_, reject) => {
    control.signal.addEventListener('abort', () => reject(control.signal.reason as Error), { once: true });
  });
  try {
    return await Promise.race([source.check(control.signal), expired]);
  } finally {
    deadline.removeEventListener('abort', onDeadline);
  }
}
