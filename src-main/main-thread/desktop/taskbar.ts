import { app, type BrowserWindow, nativeImage } from 'electron';
import { taskbarProgress } from '../../core/shell/job-progress.ts';
import type { ShellState } from '../../core/shell/tray-state.ts';

/**
 * The taskbar (Windows), dock (macOS) or launcher (Linux Unity) entry: a
 * progress bar while a bulk apply runs, and a count of trades needing action
 * (a badge where the platform has one, an overlay icon on Windows).
 */

export interface TaskbarDeps {
  readonly window: () => BrowserWindow | null;
  /** The overlay shown on Windows while trades wait (build/icons/tray/attention.png). */
  readonly attentionIconPath?: string;
  readonly platform?: NodeJS.Platform;
}

export interface TaskbarIndicator {
  update(state: ShellState): void;
}

export function createTaskbarIndicator(deps: TaskbarDeps): TaskbarIndicator {
  const platform = deps.platform ?? process.platform;
  // The bar and the Windows overlay belong to a window: a window opened anew starts without them.
  let drawnOn: BrowserWindow | null = null;
  let lastProgress = '';
  let lastCount = -1;
  return {
    update(state) {
      const win = deps.window();
      if (win !== drawnOn) {
        drawnOn = win;
        lastProgress = '';
        if (platform === 'win32') lastCount = -1;
      }
      const bar = taskbarProgress(state.job);
      const key = `${bar.progress}:${bar.mode}`;
      if (win && !win.isDestroyed() && key !== lastProgress) {
        win.setProgressBar(bar.progress, { mode: bar.mode });
        lastProgress = key;
      }
      const count = state.tradesNeedingAction;
      if (count === lastCount) return;
      if (platform === 'win32') {
        if (!win || win.isDestroyed()) return;
        const overlay = count > 0 && deps.attentionIconPath ? nativeImage.createFromPath(deps.attentionIconPath) : null;
        win.setOverlayIcon(overlay, count > 0 ? `${count} trades need action` : '');
      } else {
        app.setBadgeCount(count);
      }
      lastCount = count;
    },
  };
}
