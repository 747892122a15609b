import type { UpdateView } from '../../../src-shared/updates.ts';

/**
 * What the handlers need from the host they run in: the desktop shell in the
 * app, a recorder in the end-to-end tests. Links are checked against the
 * allowlist by the implementation before anything opens.
 */
export interface Platform {
  /** Opens an allowlisted link in the system browser; anything else is dropped. */
  openLink(url: string): Promise<void> | void;
  /** Logs and bug reports (the desktop shell; absent in a browser harness). */
  readonly support?: SupportHost;
  /** Updates (the desktop shell; absent in a browser harness). */
  readonly updates?: UpdatesHost;
}

/** The logs folder and the diagnostics bundle. */
export interface SupportHost {
  openLogsFolder(): Promise<void>;
  /** Asks where to save and writes the bundle; the path, or null when the trader cancelled. */
  saveDiagnostics(): Promise<string | null>;
}

/** The update controller as the bridge reaches it. */
export interface UpdatesHost {
  view(): UpdateView;
  checkNow(): Promise<UpdateView>;
  restartToUpdate(): UpdateView;
}
