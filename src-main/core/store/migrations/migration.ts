import type { DatabaseSync } from 'node:sqlite';

/**
 * Numbered schema migrations, one file each in this folder (NNN-what.ts,
 * NNN its version), listed in order in ../migrations.ts. The database's
 * `user_version` is the number of the last one applied; each runs in its own
 * transaction, so a crash mid-upgrade leaves the previous version intact.
 * Append new migrations; never edit one that has shipped. A migration stands
 * alone: it imports nothing of the store, whose helpers move on while a
 * shipped migration must not.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** Work SQL alone cannot express (replaying stored rows in order), run in the same transaction before `sql`. */
  readonly before?: (db: DatabaseSync) => void;
}
