import type { UpdateView } from '../../../src-shared/updates.ts';
import type { AccessView } from '../../../src-shared/access.ts';

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
  /** The password and bearer tokens (the server shell; the desktop has no sign-in). */
  readonly access?: AccessHost;
}

/** Who may reach the desk, as the server shell keeps it. */
export interface AccessHost {
  view(): AccessView;
  createToken(name: string): Promise<{ token: string; view: AccessView }>;
  revokeToken(id: string): Promise<AccessView>;
  /** Refused (`auth`) when `current` is wrong; on success every session ends. */
  changePassword(current: string, next: string): Promise<void>;
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
