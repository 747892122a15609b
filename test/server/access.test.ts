import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src-main/core/clock.ts';
import { openAccess } from '../../src-main/main-thread/server/access.ts';
import { SETUP_LINK_TTL_MS } from '../../src-main/main-thread/server/setup-link.ts';
import { SESSION_LIMITS } from '../../src-main/main-thread/server/sessions.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function testClock(): Clock & { advance(ms: number): void } {
  let mono = 0;
  return { now: () => 1_800_000_000_000 + mono, monotonic: () => mono, sleep: async () => undefined, advance: (ms) => void (mono += ms) };
}

function open(profileDir = mkdtempSync(join(tmpdir(), 'desk-access-')), clock = testClock()) {
  dirs.push(profileDir);
  const lines: string[] = [];
  const access = openAccess({
    profileDir, clock, transport: 'loopback', logsWhere: 'stdout', keyWhere: 'the keychain',
    log: { info: (m) => void lines.push(m), warn: (m) => void lines.push(m) },
  });
  return { access, clock, profileDir, lines };
}

const PASSWORD = 'a passphrase of some length';

describe('access: the password, the setup link, sessions and tokens', () => {
  it('sets the password once through the setup link, stored as a salted scrypt hash in a 0600 file', async () => {
    const { access, profileDir } = open();
    const token = access.setupToken as string;
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(await access.setUp('not-the-token', PASSWORD, '127.0.0.1')).toMatchObject({ ok: false, why: 'wrong' });
    expect(await access.setUp(token, 'short', '127.0.0.1')).toMatchObject({ ok: false, why: 'weak', message: 'Use at least 10 characters.' });
    const done = await access.setUp(token, PASSWORD, '127.0.0.1');
    expect(done.ok).toBe(true);
    expect(await access.setUp(token, PASSWORD, '127.0.0.1')).toMatchObject({ ok: false, why: 'done' });
    const file = join(profileDir, 'server', 'password.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(profileDir, 'server')).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ kdf: 'scrypt', N: 32_768, r: 8, p: 1 });
    expect(readFileSync(file, 'utf8')).not.toContain(PASSWORD);
    // Opened again (a restart), it knows the password and offers no setup link.
    const again = openAccess({ profileDir, clock: testClock(), transport: 'loopback', logsWhere: '', keyWhere: '', log: { info: () => undefined, warn: () => undefined } });
    expect(again.setupToken).toBeNull();
    expect(await again.signIn(PASSWORD, '127.0.0.1')).toMatchObject({ ok: true });
    expect(await again.signIn('a wrong one', '127.0.0.1')).toMatchObject({ ok: false, why: 'wrong' });
  });

  it('lets a setup link expire after fifteen minutes', async () => {
    const { access, clock } = open();
    clock.advance(SETUP_LINK_TTL_MS + 1);
    expect(await access.setUp(access.setupToken as string, PASSWORD, '127.0.0.1')).toMatchObject({ ok: false, why: 'expired', message: expect.stringContaining('Restart the desk') });
  });

  it('gives each sign-in a new session, with its own CSRF token, ended by time, by sign-out and by a password change', async () => {
    const { access, clock } = open();
    await access.setUp(access.setupToken as string, PASSWORD, '127.0.0.1');
    const a = await access.signIn(PASSWORD, '127.0.0.1');
    const b = await access.signIn(PASSWORD, '127.0.0.1');
    if (!a.ok || !b.ok) throw new Error('sign-in failed');
    expect(a.session.id).not.toBe(b.session.id);
    expect(a.session.csrf).not.toBe(b.session.csrf);
    const ended: string[] = [];
    access.sessions.onEnd((id) => ended.push(id));
    access.sessions.end(a.session.id);
    expect(access.sessions.find(a.session.id)).toBeNull();
    expect(access.sessions.find(b.session.id)).not.toBeNull();
    clock.advance(SESSION_LIMITS.idleMs + 1);
    expect(access.sessions.find(b.session.id)).toBeNull();
    expect(ended).toEqual([a.session.id, b.session.id]);

    const c = await access.signIn(PASSWORD, '127.0.0.1');
    await expect(access.host.changePassword('a wrong one', 'the next long passphrase')).rejects.toMatchObject({ kind: 'auth' });
    await expect(access.host.changePassword(PASSWORD, 'short')).rejects.toMatchObject({ kind: 'invalid' });
    await access.host.changePassword(PASSWORD, 'the next long passphrase');
    if (c.ok) expect(access.sessions.find(c.session.id)).toBeNull();
    expect(await access.signIn(PASSWORD, '127.0.0.1')).toMatchObject({ ok: false, why: 'wrong' });
    expect(await access.signIn('the next long passphrase', '127.0.0.1')).toMatchObject({ ok: true });
  });

  it('keeps bearer tokens hashed: shown once, listed by name, revoked', async () => {
    const { access, profileDir } = open();
    const made = await access.host.createToken('repricer');
    expect(made.token).toMatch(/^mdt_[\w-]{43}$/);
    expect(made.view).toMatchObject({ shell: 'server', tokens: [{ name: 'repricer', lastUsedAt: null }] });
    const file = readFileSync(join(profileDir, 'server', 'tokens.json'), 'utf8');
    expect(file).not.toContain(made.token.slice(4));
    expect(statSync(join(profileDir, 'server', 'tokens.json')).mode & 0o777).toBe(0o600);
    expect(access.tokens.verify(made.token, 5)).toMatchObject({ name: 'repricer' });
    expect(access.tokens.verify(`${made.token}x`, 5)).toBeNull();
    expect(access.host.view()).toMatchObject({ tokens: [{ lastUsedAt: 5 }] });
    const id = access.host.view().shell === 'server' ? (access.host.view() as { tokens: Array<{ id: string }> }).tokens[0]?.id ?? '' : '';
    await access.host.revokeToken(id);
    expect(access.tokens.verify(made.token, 6)).toBeNull();
    await expect(access.host.revokeToken(id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('bans an address after ten wrong passwords, even for the right one, and logs it without the password', async () => {
    const { access, clock, lines } = open();
    await access.setUp(access.setupToken as string, PASSWORD, '127.0.0.1');
    for (let i = 0; i < 10; i++) await access.signIn(`guess ${i}`, '10.0.0.9');
    expect(await access.signIn(PASSWORD, '10.0.0.9')).toMatchObject({ ok: false, why: 'banned', retryAfterMs: 60_000 });
    expect(await access.signIn(PASSWORD, '10.0.0.8')).toMatchObject({ ok: true });
    clock.advance(60_000);
    expect(await access.signIn(PASSWORD, '10.0.0.9')).toMatchObject({ ok: true });
    expect(lines.join('\n')).not.toContain('guess');
  });
});
