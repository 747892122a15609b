import { z } from 'zod';
import { PASSWORD_MAX_CHARS, passwordProblem } from './sign-in.ts';
import { lazySchema } from './lazy-schema.ts';

export { INSECURE_REMOTE_WARNING, PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS, passwordProblem } from './sign-in.ts';

/**
 * Who may reach the desk, as the server shell keeps it: the password the
 * trader set through the one-time setup link, and the bearer tokens scripts
 * use. The desktop shell has neither (the window is the trader's own), so
 * it answers `{ shell: 'desktop' }` and Settings shows nothing of this.
 */

export const newPassword = z.string().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A password as typed at sign-in: bounded, never judged by the new-password rule (an old one may be shorter). */
export const typedPassword = lazySchema(() => z.string().min(1).max(PASSWORD_MAX_CHARS));

export const tokenName = lazySchema(() => z.string().trim().min(1).max(60));

/** A bearer token as Settings lists it: never the token itself (only its hash is kept). */
export const accessTokenView = lazySchema(() => z.object({
  id: z.string().max(40),
  name: z.string().max(60),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
}));
export type AccessTokenView = z.output<typeof accessTokenView>;

/**
 * How the server is reached: only from this machine (`loopback`), over TLS
 * it serves itself (`tls`), behind a reverse proxy the trader named
 * (`proxy`), or in the clear from other machines (`insecure`), which every
 * screen shows as a warning.
 */
export const serverTransport = z.enum(['loopback', 'tls', 'proxy', 'insecure']);
export type ServerTransport = z.output<typeof serverTransport>;

export const accessView = lazySchema(() => z.discriminatedUnion('shell', [
  z.object({ shell: z.literal('desktop') }),
  z.object({
    shell: z.literal('server'),
    transport: serverTransport,
    /** Where the server's log goes, in words (stdout, journald). */
    logs: z.string().max(300),
    /** Where the server keeps the API key, in words (the keychain, a key file, systemd's credential). */
    keyWhere: z.string().max(500),
    tokens: z.array(accessTokenView).max(100),
  }),
]));
export type AccessView = z.output<typeof accessView>;

/** A token just made: shown once, then only its name and dates. */
export const createdToken = lazySchema(() => z.object({ token: z.string().max(200), view: accessView }));
