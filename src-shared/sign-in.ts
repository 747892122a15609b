/**
 * What the server shell's sign-in page shares with the desk's screens: the
 * rule a new password must pass (checked where it is typed, the setup page
 * and Settings, and again by the server) and the warning of a desk reachable
 * in the clear. Kept apart from the schemas so the sign-in page loads no
 * validation library.
 */

export const PASSWORD_MIN_CHARS = 10;
export const PASSWORD_MAX_CHARS = 1_024;

/** What is wrong with a new password, in words for the screen; null when it will do. */
export function passwordProblem(password: string, repeated?: string): string | null {
  if (password.length < PASSWORD_MIN_CHARS) return `Use at least ${PASSWORD_MIN_CHARS} characters.`;
  if (password.length > PASSWORD_MAX_CHARS) return `Use at most ${PASSWORD_MAX_CHARS} characters.`;
  if (repeated !== undefined && repeated !== password) return 'The two passwords are not the same.';
  return null;
}

/** The red line every screen shows while the server is reachable in the clear from other machines. */
export const INSECURE_REMOTE_WARNING =
  'This desk is reachable from other machines without encryption: anyone on the network can read your password and take over your session. '
  + 'Serve it over TLS (--tls-cert, --tls-key) or behind a reverse proxy (--trusted-proxy).';
