import type { DatabaseSync } from 'node:sqlite';
import { pragmaValue } from './typed-rows.ts';
import type { Migration } from './migrations/migration.ts';
import { migration as m1 } from './migrations/001-accounts-and-settings.ts';
import { migration as m2 } from './migrations/002-ledger-of-listings-and-buy-orders.ts';
import { migration as m3 } from './migrations/003-pending-trades-and-the-seen-set.ts';
import { migration as m4 } from './migrations/004-drafts-their-changes-and-unfolded-bulk.ts';
import { migration as m5 } from './migrations/005-apply-journal-and-activity-log.ts';
import { migration as m6 } from './migrations/006-evidence-about-unknown-outcomes.ts';
import { migration as m7 } from './migrations/007-listings-the-service-no-longer-holds.ts';
import { migration as m8 } from './migrations/008-bounds-on-a-created-buy-orders.ts';
import { migration as m9 } from './migrations/009-trades-announced-as-needing-action.ts';
import { migration as m10 } from './migrations/010-draft-changes-as-columns.ts';
import { migration as m11 } from './migrations/011-item-names.ts';
import { migration as m12 } from './migrations/012-trade-history-and-balance-readings.ts';
import { migration as m13 } from './migrations/013-inventories-read-from-steam.ts';
import { migration as m14 } from './migrations/014-what-each-apply-changed.ts';
import { migration as m15 } from './migrations/015-bulk-edits-written-in-parts.ts';
import { migration as m16 } from './migrations/016-draft-entries-in-draft-order.ts';
import { migration as m17 } from './migrations/017-runs-queued-in-parts.ts';
import { migration as m18 } from './migrations/018-refusals-of-what-the-service-said.ts';
import { migration as m19 } from './migrations/019-item-names-searched-by-words-and-parts.ts';
import { migration as m20 } from './migrations/020-what-each-item-cost.ts';
import { migration as m21 } from './migrations/021-price-sources-and-repricing.ts';
import { migration as m22 } from './migrations/022-a-source-price-s-steady-level.ts';
import { migration as m23 } from './migrations/023-a-draft-s-waiting-changes-counted-from-its-index.ts';
import { migration as m24 } from './migrations/024-draft-entries-found-by-sku.ts';

/** The numbered schema migrations (migrations/migration.ts says how they are written), in order. */
export type { Migration };

export const MIGRATIONS: readonly Migration[] = [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24];
export const LATEST_VERSION = MIGRATIONS.length;

/**
 * Applies every migration above the database's version, up to `to` (default:
 * all). Refuses a database written by a newer app rather than guessing.
 */
export function migrate(db: DatabaseSync, to: number = LATEST_VERSION): number {
  const current = userVersion(db);
  if (current > LATEST_VERSION) throw new NewerProfileError(current);
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > to) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      migration.before?.(db);
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

/** A profile written by a newer version of the app: its schema is not one this app may read or change. */
export class NewerProfileError extends Error {
  override readonly name = 'NewerProfileError';
  readonly version: number;
  constructor(version: number) {
    super(`the profile database is version ${version}, newer than this app knows (${LATEST_VERSION})`);
    this.version = version;
  }
}

export function userVersion(db: DatabaseSync): number {
  return Number(pragmaValue('user_version', db.prepare('PRAGMA user_version').get()) ?? 0);
}
