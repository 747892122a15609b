import { join } from 'node:path';
import { passwordProblem, type AccessView, type ServerTransport } from '../../../src-shared/access.ts';
import type { Clock } from '../../core/clock.ts';
import { DomainError, refused } from '../../core/errors.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import type { AccessHost } from '../../ipc/handlers/platform.ts';
import { openBearerTokens, type BearerTokens } from './bearer-tokens.ts';
import { createLoginThrottle, type LoginThrottle, type ThrottleRules } from './login-throttle.ts';
import { openPasswordFile } from './password-file.ts';
import { privateDir } from './private-file.ts';
import { createSessions, type Session, type Sessions } from './sessions.ts';
import { issueSetupLink, type SetupLink } from './setup-link.ts';

/**
 * Who may reach the desk: the password (set once through the setup link),
 * the browser sessions, the bearer tokens and the throttle on failed
 * sign-ins, over the files in `<profile>/server/` (each 0600, the folder
 * 0700). The HTTP side asks it; Settings reaches it through `host`.
 */

export type SignIn =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly why: 'wrong' | 'banned' | 'not_set'; readonly retryAfterMs?: number };

export type Setup =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly why: 'expired' | 'used' | 'wrong' | 'done' | 'weak'; readonly message: string };

export interface Access {
  /** The setup link's token while no password is set (printed to the log at start), else null. */
  readonly setupToken: string | null;
  needsSetup(): boolean;
  setUp(token: string, password: string, address: string): Promise<Setup>;
  signIn(password: string, address: string): Promise<SignIn>;
  readonly sessions: Sessions;
  readonly tokens: BearerTokens;
  /** Settings' view and its changes (the bridge's access channels). */
  readonly host: AccessHost;
}

export interface AccessOptions {
  /** The profile folder: the files live in its `server/` folder. */
  readonly profileDir: string;
  readonly clock: Clock;
  readonly transport: ServerTransport;
  readonly log: Pick<AppLog, 'info' | 'warn'>;
  /** Where the log goes, in words for Settings. */
  readonly logsWhere: string;
  /** Where the API key is kept, in words for Settings. */
  readonly keyWhere: string;
  readonly throttle?: ThrottleRules;
}

export function openAccess(options: AccessOptions): Access {
  const { clock, log } = options;
  const dir = privateDir(join(options.profileDir, 'server'));
  const password = openPasswordFile(join(dir, 'password.json'));
  const tokens = openBearerTokens(join(dir, 'tokens.json'));
  const sessions = createSessions(clock);
  const throttle: LoginThrottle = createLoginThrottle(clock, options.throttle);
  const setup: SetupLink | null = password.isSet() ? null : issueSetupLink(clock);

  const view = (): AccessView => ({ shell: 'server', transport: options.transport, logs: options.logsWhere, keyWhere: options.keyWhere, tokens: tokens.list() });

  /** A correct password, unless the address is banned (a ban is not lifted by guessing right). */
  async function check(candidate: string, address: string): Promise<SignIn | null> {
    const state = throttle.check(address);
    if (state.banned) return { ok: false, why: 'banned', retryAfterMs: state.retryAfterMs };
    if (await password.verify(candidate)) {
      throttle.succeeded(address);
      return null;
    }
    const after = throttle.failed(address);
    log.warn('a wrong password', { address, banned: after.banned, ...(after.banned ? { banSeconds: Math.ceil(after.retryAfterMs / 1000) } : {}) });
    return after.banned ? { ok: false, why: 'banned', retryAfterMs: after.retryAfterMs } : { ok: false, why: 'wrong' };
  }

  return {
    setupToken: setup?.token ?? null,
    needsSetup: () => !password.isSet(),
    async setUp(token, next, address) {
      if (password.isSet() || !setup) return { ok: false, why: 'done', message: 'A password is set already: sign in with it.' };
      const verdict = setup.accepts(token);
      if (verdict === 'wrong') return { ok: false, why: 'wrong', message: 'This is not the setup link the desk printed in its log.' };
      if (verdict !== 'ok') {
        return { ok: false, why: verdict, message: 'This setup link has expired. Restart the desk: it prints a new one in its log.' };
      }
      const problem = passwordProblem(next);
      if (problem) return { ok: false, why: 'weak', message: problem };
      setup.use();
      await password.set(next, clock.now());
      log.info('the password was set through the setup link', { address });
      return { ok: true, session: sessions.start(address) };
    },
    async signIn(candidate, address) {
      if (!password.isSet()) return { ok: false, why: 'not_set' };
      const refusal = await check(candidate, address);
      if (refusal) return refusal;
      log.info('signed in', { address });
      return { ok: true, session: sessions.start(address) };
    },
    sessions,
    tokens,
    host: {
      view,
      async createToken(name) {
        const made = tokens.create(name, clock.now());
        log.info('a bearer token was made', { id: made.view.id, name });
        return { token: made.token, view: view() };
      },
      async revokeToken(id) {
        tokens.revoke(id);
        log.info('a bearer token was revoked', { id });
        return view();
      },
      async changePassword(current, next) {
        const problem = passwordProblem(next);
        if (problem) throw refused(problem);
        if (!(await password.verify(current))) throw new DomainError('auth', 'The current password is not right.');
        await password.set(next, clock.now());
        log.info('the password was changed; every session ends');
        sessions.endAll();
      },
    },
  };
}
