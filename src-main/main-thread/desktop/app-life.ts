import { app } from 'electron';

/**
 * The app's life in the background: one instance only, the window hiding to
 * the tray, and Quit as a deliberate act (the tray's Quit, the app menu's
 * Quit, a system shutdown), never a side effect of closing the window.
 */

/**
 * Takes the single-instance lock. False means another instance runs: the
 * caller quits at once, and that instance gets `onSecondInstance` (show
 * and focus its window).
 */
export function claimSingleInstance(onSecondInstance: (argv: readonly string[]) => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', (_event, argv) => onSecondInstance(argv));
  return true;
}

export interface QuitSwitch {
  /** True once a real quit began; the window's close handler reads it. */
  readonly quitting: boolean;
  /** The explicit Quit: flags it, then asks Electron to quit. */
  quit(): void;
}

/**
 * Any quit Electron starts itself (Cmd+Q, the dock menu, a logout) also
 * flips the switch through `before-quit`, so the window lets itself close.
 */
export function createQuitSwitch(): QuitSwitch {
  let quitting = false;
  app.on('before-quit', () => {
    quitting = true;
  });
  return {
    get quitting() {
      return quitting;
    },
    quit() {
      quitting = true;
      app.quit();
    },
  };
}

/** macOS: a click on the dock icon shows the hidden window. */
export function revealOnActivate(reveal: () => void): void {
  app.on('activate', () => reveal());
}

/**
 * Holds Electron's quit until `shutdown` settles (applies suspended, the
 * store closed), then ends the process with `finish` (default: exit 0; an
 * update installs instead). Electron would otherwise end the process while
 * a batch's outcome is still being written.
 */
export function holdQuitFor(shutdown: () => Promise<void>, options: { onError?: (error: unknown) => void; finish?: () => void } = {}): void {
  let closing = false;
  app.on('will-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    void shutdown()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => (options.finish ?? (() => app.exit(0)))());
  });
}
