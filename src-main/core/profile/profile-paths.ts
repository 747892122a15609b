import { join } from 'node:path';

/** A profile's files in the profiles folder: its home database, its sandbox's, and its lock. */
export function profilePaths(dataDir: string, profile: string): { home: string; sandbox: string; lock: string } {
  return { home: join(dataDir, `${profile}.sqlite`), sandbox: join(dataDir, `${profile}.sandbox.sqlite`), lock: join(dataDir, `${profile}.lock`) };
}
