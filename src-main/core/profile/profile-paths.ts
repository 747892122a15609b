import { join } from 'node:path';

/** A profile's files in the profiles folder: its home database, its sandbox's, its lock, and the note of a file moved aside. */
export function profilePaths(dataDir: string, profile: string): { home: string; sandbox: string; lock: string; recovery: string } {
  return {
    home: join(dataDir, `${profile}.sqlite`),
    sandbox: join(dataDir, `${profile}.sandbox.sqlite`),
    lock: join(dataDir, `${profile}.lock`),
    recovery: join(dataDir, `${profile}.recovery.json`),
  };
}
