import type { InjectionKey } from 'vue';

/**
 * Who goes first over the bridge at launch. The screen on show asks for its
 * first content (Listings: its first rows) while it is being built, or before
 * the window is built when it opens on that screen (stores/first-content.ts); what the
 * rest of the desk mirrors (trades, drafts, the heartbeat, the balance, the
 * apply, the activity log) is asked once that content has been painted, so
 * their questions, their answers and what they re-render do not stand
 * between the trader and the screen they opened. Main answers in the order it
 * is asked, and the renderer handles one answer at a time.
 *
 * A screen whose first content is a page of its own (the ledger tables) takes
 * a hold while it is built and releases it when the content is in; the rest
 * go once that has been painted. A screen that takes no hold shows what the
 * desk-wide stores hold (Overview, Trades…): they start as soon as it is
 * mounted. A hold never lasts longer than `FIRST_SCREEN_MAX_WAIT_MS`: a slow
 * or failed answer delays nothing else for long.
 */

/** The longest the desk-wide questions wait for the first screen's content. */
export const FIRST_SCREEN_MAX_WAIT_MS = 1500;

export interface FirstScreen {
  /** A screen that loads its first content holds the rest until it calls the returned release. */
  hold(): () => void;
  /** Runs `task` after the first screen's content has been painted (at once when that already happened). */
  after(task: () => void): void;
  /** The first screen has mounted: with no hold taken, the rest go at once. */
  mounted(): void;
  /** The shell is going away: what still waits never runs. */
  cancel(): void;
}

export interface FirstScreenTiming {
  /** Calls back after the next frame has been painted. */
  afterPaint(callback: () => void): void;
  setTimeout(callback: () => void, ms: number): unknown;
}

const browserTiming: FirstScreenTiming = {
  // A task queued from a frame callback runs once that frame has been painted.
  afterPaint: (callback) => requestAnimationFrame(() => void setTimeout(callback, 0)),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
};

export function createFirstScreen(timing: FirstScreenTiming = browserTiming): FirstScreen {
  let holds = 0;
  let held = false;
  let isMounted = false;
  let done = false;
  const waiting: (() => void)[] = [];

  const runAll = () => {
    if (done) return;
    done = true;
    for (const task of waiting.splice(0)) task();
  };
  const settle = () => {
    if (done || !isMounted || holds > 0) return;
    if (held) timing.afterPaint(runAll);
    else runAll();
  };

  return {
    hold() {
      if (done) return () => undefined;
      held = true;
      holds += 1;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        holds -= 1;
        settle();
      };
      timing.setTimeout(release, FIRST_SCREEN_MAX_WAIT_MS);
      return release;
    },
    after(task) {
      if (done) task();
      else waiting.push(task);
    },
    mounted() {
      isMounted = true;
      settle();
    },
    cancel() {
      done = true;
      waiting.length = 0;
    },
  };
}

/** How App hands its FirstScreen to the screen it shows (a screen mounted alone finds none). */
export const FIRST_SCREEN: InjectionKey<FirstScreen> = Symbol('first screen');
