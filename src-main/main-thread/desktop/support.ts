import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { app, type BrowserWindow, dialog, shell } from 'electron';
import { diagnosticsFileName } from '../../core/shell/diagnostics.ts';
import type { SupportHost } from '../../ipc/handlers/platform.ts';

/**
 * Settings' "Open logs folder" and "Save diagnostics…": the file manager on
 * the logs folder, and a save dialog for the bug-report bundle.
 */
export interface SupportDeps {
  readonly logsDir: string;
  /** The bundle's text, built when the trader saves it. */
  readonly bundle: () => Promise<string>;
  readonly window: () => BrowserWindow | null;
}

export function createSupport(deps: SupportDeps): SupportHost {
  return {
    async openLogsFolder() {
      const error = await shell.openPath(deps.logsDir);
      if (error !== '') throw new Error(`The logs folder (${deps.logsDir}) could not be opened: ${error}`);
    },
    async saveDiagnostics() {
      const options = {
        title: 'Save diagnostics',
        defaultPath: join(app.getPath('downloads'), diagnosticsFileName(new Date())),
        filters: [{ name: 'Diagnostics', extensions: ['json'] }],
      };
      const win = deps.window();
      const choice = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      if (choice.canceled || !choice.filePath) return null;
      await writeFile(choice.filePath, await deps.bundle(), 'utf8');
      return choice.filePath;
    },
  };
}
