/**
 * What the handlers need from the host they run in: the desktop shell in the
 * app, a recorder in the end-to-end tests. Links are checked against the
 * allowlist by the implementation before anything opens.
 */
export interface Platform {
  /** Opens an allowlisted link in the system browser; anything else is dropped. */
  openLink(url: string): Promise<void> | void;
}
