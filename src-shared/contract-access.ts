import { z } from 'zod';
import { accessView, createdToken, newPassword, tokenName, typedPassword } from './access.ts';
import { byMain, channel, none, ok } from './channel-facts.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The contract's channels for who may reach the desk: answered by main (on
 * the server, its sign-in and bearer tokens; the desktop answers it has no
 * sign-in). Spread into contract.ts, which stays the one description of the
 * bridge.
 */

export const accessChannels = {
  /** The shell, and on the server how it is reached and its bearer tokens. */
  'access:state': channel(none, accessView, byMain),
  /** A bearer token for scripts: the token is in this reply and nowhere else, ever. */
  'access:createToken': channel(z.object({ name: tokenName }).strict(), createdToken, byMain),
  'access:revokeToken': channel(lazySchema(() => z.object({ id: z.string().min(1).max(40) }).strict()), accessView, byMain),
  /** Sets a new password and ends every session, this one too. */
  'access:changePassword': channel(z.object({ current: typedPassword, next: newPassword }).strict(), ok, byMain),
  /** Ends this page's session. */
  'access:signOut': channel(none, ok, byMain),
} as const;
