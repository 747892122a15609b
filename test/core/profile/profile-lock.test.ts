import { spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { processIdentity } from '../../../src-main/core/profile/process-identity.ts';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../src-main/core/errors.ts';
import { acquireProfileLock, lockOwner, type LockOwner } from '../../../src-main/core/profile/profile-lock.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const now = () => Date.UTC(2025, 10, 26, 10, 32);
const lockAt = () => {
  dir = mkdtempSync(join(tmpdir(), 'desk-lock-'));
  return join(dir, 'default.lock');
};
const written = (path: string): LockOwner => lockOwner.parse(JSON.parse(readFileSync(path, 'utf8')));

/** The PID of a process that has ended (a child run to its end). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('one desk per profile', () => {
  it('writes its owner beside the profile, refuses a second desk saying who has the profile, and lets go on release', () => {
    const path = lockAt();
    const first = acquireProfileLock({ path, token: 'desk-a', now });
    expect(written(path)).toMatchObject({ pid: process.pid, token: 'desk-a', lockedAt: now() });
    let refused: unknown;
    try {
      acquireProfileLock({ path, token: 'desk-b', now });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      kind: 'conflict',
      message: expect.stringMatching(new RegExp(`^Another Marketplace Desk has this profile open \\(process ${process.pid} on .+, since 2025-11-26 10:32 UTC\\)\\. Close it first; if it is no longer running, delete .*default\\.lock`)),
    });
    expect(written(path).token).toBe('desk-a');
    first.release();
    expect(existsSync(path)).toBe(false);
    acquireProfileLock({ path, token: 'desk-b', now }).release();
    // Nothing is left beside the profile but what it had.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock whose process has ended, one it wrote itself before (same token), a garbled one, and its own PID from an earlier process', () => {
    const path = lockAt();
    const host = 'this-host';
    const stale = (owner: Partial<LockOwner>) =>
      writeFileSync(path, JSON.stringify({ pid: deadPid(), host, processStartedAt: 1, lockedAt: 2, token: 'gone', ...owner }));
    for (const setUp of [
      () => stale({}),
      () => stale({ pid: process.pid, token: 'restarted-worker' }),
      () => writeFileSync(path, '{"pid": 12'),
      () => stale({ pid: process.pid, processStartedAt: 5 }),
    ]) {
      setUp();
      const lock = acquireProfileLock({ path, token: 'restarted-worker', now, host, processStartedAt: 1_000_000 });
      expect(written(path)).toMatchObject({ token: 'restarted-worker', pid: process.pid });
      lock.release();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over what a power cut can leave of a lock never synced to the disk: an empty file, or zeros', () => {
    const path = lockAt();
    for (const left of ['', '\0'.repeat(180)]) {
      writeFileSync(path, left);
      const lock = acquireProfileLock({ path, token: 'after-the-cut', now });
      expect(written(path)).toMatchObject({ token: 'after-the-cut', pid: process.pid });
      lock.release();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('counts a lock from another host, or a live process here, as held', () => {
    const path = lockAt();
    writeFileSync(path, JSON.stringify({ pid: deadPid(), host: 'other-host', processStartedAt: 1, lockedAt: now(), token: 't' }));
    expect(() => acquireProfileLock({ path, token: 'me', now, host: 'this-host' })).toThrow(/process \d+ on other-host/);
    writeFileSync(path, JSON.stringify({ pid: process.ppid, host: 'this-host', processStartedAt: 1, lockedAt: now(), token: 't' }));
    expect(() => acquireProfileLock({ path, token: 'me', now, host: 'this-host' })).toThrow(/Another Marketplace Desk has this profile open/);
    // The refused desk removed nothing.
    expect(written(path).token).toBe('t');
  });

  // Windows keeps no start time a lock can read without a second's worth of PowerShell: a live PID counts as held there.
  const noIdentity = process.platform === 'win32' ? 'Windows: the process start time is not read, so a live PID counts as held' : null;
  it.skipIf(noIdentity !== null)(`takes over a lock whose PID is alive but now another program's (a different start time), and refuses the same process${noIdentity ? ` (skipped: ${noIdentity})` : ''}`, async () => {
    const path = lockAt();
    // An unrelated program, alive for the whole test, whose PID the lock names as if it had been handed on.
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      const pid = stranger.pid ?? 0;
      const identity = processIdentity(pid);
      expect(identity).not.toBeNull();
      const lockOf = (id: string | null) => JSON.stringify({ pid, host: hostname(), processStartedAt: 1, lockedAt: now(), token: 'gone-desk', identity: id });
      // The desk that wrote the lock was another process with that ID: started at another time.
      writeFileSync(path, lockOf(`${identity}0`));
      const lock = acquireProfileLock({ path, token: 'me', now });
      expect(written(path)).toMatchObject({ token: 'me', pid: process.pid, identity: processIdentity(process.pid) });
      lock.release();
      // The very process that wrote it, still running: held.
      writeFileSync(path, lockOf(identity));
      expect(() => acquireProfileLock({ path, token: 'me', now })).toThrow(new RegExp(`^Another Marketplace Desk has this profile open \\(process ${pid} on `));
      expect(written(path).token).toBe('gone-desk');
    } finally {
      stranger.kill();
    }
  });
});
