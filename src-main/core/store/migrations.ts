import type { DatabaseSync } from 'node:sqlite';
import { migration as m1 } from './migrations/001-accounts-and-settings.ts';
import { migration as m2 } from './migrations/002-ledger-of-listings-and-buy-orders.ts';
import { migration as m3 } from './migrations/003-pending-trades-and-the-seen-set.ts';
import { migration as m4 } from './migrations/004-drafts-their-changes-and-unfolded-bulk.ts';
import { migration as m5 } from './migrations/005-apply-journal-and-activity-log.ts';
import { migration as m6 } from './migrations/006-evidence-about-unknown-outcomes.ts';
import { migration as m7 } from './migrations/007-listings-the-service-no-longer-holds.ts';
import { migration as m8 } from './migrations/008-bounds-on-a-created-buy-orders.ts';
import { migration as m9 } from './migrations/009-trades-announced-as-needing-action.ts';
import { migration as m10 } from './migrations/010-inventories-read-from-steam.ts';

/**
 * Numbered schema migrations, one file each in migrations/ (NNN-what.ts,
 * NNN its version), listed here in order. The database's `user_version` is the
 * number of the last one applied; each runs in its own transaction, so a crash
 * mid-upgrade leaves the previous version intact. Append new migrations; never
 * edit one that has shipped.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10];
export const LATEST_VERSION = MIGRATIONS.length;

/**
 * Applies every migration above the database's version, up to `to` (default:
 * all). Refuses a database written by a newer app rather than guessing.
 */
export function migrate(db: DatabaseSync, to: number = LATEST_VERSION): number {
  const current = userVersion(db);
  if (current > LATEST_VERSION) {
    throw new Error(`the profile database is version ${current}, newer than this app knows (${LATEST_VERSION})`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > to) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new Error(`migration ${migration.version} (${migration.name}) failed: ${String(error)}`, { cause: error });
    }
  }
  return userVersion(db);
}

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version?: number } | undefined;
  return Number(row?.user_version ?? 0);
}
