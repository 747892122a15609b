import { closeSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { hostname } from 'node:os';
import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { readFileIfAny } from '../whole-file.ts';
import { processIdentity } from './process-identity.ts';
import { lazySchema } from '../../../src-shared/lazy-schema.ts';

/**
 * One desk per profile, held by the core itself: a lock file beside the
 * profile's database (`default.lock` beside `default.sqlite`) naming its
 * owner. Two desks on one ledger would each send the same draft, creating
 * every listing twice; the app's single-instance lock covers only copies of
 * the app that share its user-data folder.
 *
 * The file is linked into place whole and only where there is none, so of
 * two desks starting together one wins.
 * A lock is judged by more than its process ID: it names its owner's
 * process identity too (the ID with the process's start time as the system
 * keeps it, process-identity.ts). One whose process is gone (same host,
 * dead PID), or whose PID now belongs to another process (a different
 * identity: the ID was handed on after the owner ended, or the machine
 * restarted), is stale and taken over; one left by an earlier data worker
 * of the same app (a worker restarted after it died, in the same process)
 * carries the same token and is taken over too. A lock from another host
 * cannot be checked and counts as held: the refusal names the file to
 * delete if that desk is gone.
 */
export const lockOwner = lazySchema(() => z.object({
  pid: z.number().int(),
  host: z.string(),
  /** When the owner's process started (ms since the epoch), to tell it from a later process given the same PID. */
  processStartedAt: z.number(),
  /** When the lock was taken. */
  lockedAt: z.number(),
  /** Who holds it within the process: a desk restarted by the same owner passes the same token. */
  token: z.string(),
  /** The owner's process identity (process-identity.ts); null where the system does not say, or the lock is older than it. */
  identity: z.string().nullable().default(null),
}));
export type LockOwner = z.infer<typeof lockOwner>;

export interface ProfileLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock file, if it is still this desk's. */
  release(): void;
}

export interface ProfileLockOptions {
  /** The lock file: `<profile>.lock` in the profiles folder. */
  readonly path: string;
  readonly token: string;
  readonly now: () => number;
  /** Default: this process. */
  readonly pid?: number;
  readonly host?: string;
  readonly processStartedAt?: number;
  /** Default: a signal-0 probe (no such process: dead). */
  readonly isAlive?: (pid: number) => boolean;
  /** Default: the system's (process-identity.ts). */
  readonly identityOf?: (pid: number) => string | null;
}

/** Takes the profile's lock, or throws a `conflict` that says who has the profile open. */
export function acquireProfileLock(options: ProfileLockOptions): ProfileLock {
  const isAlive = options.isAlive ?? processAlive;
  const identityOf = options.identityOf ?? processIdentity;
  const pid = options.pid ?? process.pid;
  const owner: LockOwner = {
    pid,
    host: options.host ?? hostname(),
    processStartedAt: options.processStartedAt ?? Math.round(Date.now() - process.uptime() * 1000),
    lockedAt: options.now(),
    token: options.token,
    identity: identityOf(pid),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(options.path, owner)) return held(options.path, owner);
    const current = readOwner(options.path);
    if (current === undefined) continue; // removed meanwhile: try again
    const stale = current === null
      || current.token === owner.token
      || (current.host === owner.host && (!isAlive(current.pid) || anotherProcess(current, identityOf) || reusedPid(current, owner)));
    if (!stale) throw heldBy(current, options.path);
    takeOver(options.path, current);
  }
  throw new DomainError('conflict', `The profile’s lock file ${options.path} keeps changing, so another Marketplace Desk may be starting on this profile. Try again in a moment`);
}

/** The lock's PID is alive, but the process holding it now is not the one that wrote the lock. */
function anotherProcess(current: LockOwner, identityOf: (pid: number) => string | null): boolean {
  if (current.identity === null) return false;
  const now = identityOf(current.pid);
  return now !== null && now !== current.identity;
}

/** The lock names this very PID but a process started at another time: an earlier process whose PID this one was given. */
function reusedPid(current: LockOwner, owner: LockOwner): boolean {
  return current.pid === owner.pid && Math.abs(current.processStartedAt - owner.processStartedAt) > 2_000;
}

/**
 * Opens something that holds the profile (the desk) under its lock: the
 * lock is taken first (its folder made), and let go when opening fails; the
 * opened thing lets it go when it closes.
 */
export function withProfileLock<T>(options: ProfileLockOptions, open: (lock: ProfileLock) => Promise<T>): Promise<T> {
  let lock: ProfileLock;
  try {
    mkdirSync(dirname(options.path), { recursive: true });
    lock = acquireProfileLock(options);
  } catch (error) {
    return Promise.reject(error);
  }
  const opening = open(lock);
  // The opening itself is handed back untouched: its caller sees it settle exactly when it does.
  opening.catch(() => lock.release());
  return opening;
}

/** Runs `work` (something quick and synchronous, such as putting a file in the profile's place) holding the profile's lock. */
export function holdingProfileLock<T>(options: ProfileLockOptions, work: () => T): T {
  mkdirSync(dirname(options.path), { recursive: true });
  const lock = acquireProfileLock(options);
  try {
    return work();
  } finally {
    lock.release();
  }
}

function held(path: string, owner: LockOwner): ProfileLock {
  return {
    path,
    owner,
    release() {
      if (readOwner(path)?.token !== owner.token) return;
      rmSync(path, { force: true });
    },
  };
}

/**
 * Creates the file only if there is none, whole: written beside it, then
 * linked into place (atomic, and it fails when the file exists), so no desk
 * ever reads a lock half written. False when there is one.
 *
 * Not synced to the disk: another process reads the file as written from the
 * system's cache, and what a power cut can leave of it (an empty file, or
 * zeros) names no owner, so it counts as stale and is taken over; its owner
 * died with the machine anyway. A sync held every start for a few ms, more
 * on a slow disk.
 */
function tryCreate(path: string, owner: LockOwner): boolean {
  const draft = `${path}.${owner.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(draft, 'wx');
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** The owner the file names; null when it names none (empty or garbled: a crash while it was written); undefined when it is gone. */
function readOwner(path: string): LockOwner | null | undefined {
  const text = readFileIfAny(path);
  if (text === null) return undefined;
  try {
    const parsed = lockOwner.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Moves a stale lock out of the way. Renaming is atomic, so of two desks
 * taking over the same stale lock only one moves it; a desk that moved a
 * lock newer than the stale one it read (the other desk's, just made) puts
 * it back.
 */
function takeOver(path: string, stale: LockOwner | null): void {
  const aside = `${path}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = readOwner(aside);
  const same = moved === null ? stale === null : stale !== null && moved !== undefined && moved.token === stale.token && moved.lockedAt === stale.lockedAt;
  if (!same) {
    try {
      linkSync(aside, path);
    } catch {
      // Another desk made the lock meanwhile: it holds the profile.
    }
  }
  rmSync(aside, { force: true });
}

/** The profile is another desk's: a `conflict` whose message says whose, and how to free it. */
export class ProfileLockedError extends DomainError {
  override readonly name = 'ProfileLockedError';
  /** The lock file. */
  readonly path: string;
  constructor(message: string, path: string) {
    super('conflict', message);
    this.path = path;
  }
}

function heldBy(owner: LockOwner, path: string): ProfileLockedError {
  const since = new Date(owner.lockedAt).toISOString().slice(0, 16).replace('T', ' ');
  return new ProfileLockedError(
    `Another Marketplace Desk has this profile open (process ${owner.pid} on ${owner.host}, since ${since} UTC). Close it first; if it is no longer running, delete ${path} and start again`,
    path,
  );
}

/** Whether a process with this PID exists (EPERM: it exists, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
