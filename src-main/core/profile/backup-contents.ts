import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { BackupRows, BackupView } from '../../../src-shared/profile.ts';
import { readBackupFacts } from '../store/backup-db.ts';
import { LATEST_VERSION } from '../store/migrations.ts';
import { listBackups, type Backup } from './backup-files.ts';

/**
 * What a backup holds, read from its file on a read-only connection, so the
 * trader chooses one knowing it: its data version, the app that wrote it,
 * and how many listings, buy orders, drafts and trades it has. One from a
 * newer data version, or one that cannot be read, says why it cannot be
 * restored; one that holds nothing is marked empty (restoring it is a fresh
 * start, and asks to be confirmed).
 */

/** Where the profile notes which version of the app last opened it (settings table): a backup then says what wrote it. */
export const APP_VERSION_KEY = 'profile.appVersion';

/** Counted per table; a table this backup's version did not have yet counts 0. */
const COUNTED: Record<keyof BackupRows, readonly string[]> = {
  listings: ['listings'],
  buyOrders: ['buy_orders'],
  drafts: ['drafts'],
  // Data version 10 moved a draft's changes from draft_changes to draft_entries.
  draftChanges: ['draft_entries', 'draft_changes'],
  trades: ['trade_history'],
};

export function describeBackup(backup: Backup): BackupView {
  const base = { name: basename(backup.path), file: backup.path, takenAt: backup.takenAt, kind: backup.kind, sizeBytes: sizeOf(backup.path) };
  try {
    const facts = readBackupFacts(backup.path, COUNTED, APP_VERSION_KEY);
    const counted = (key: keyof BackupRows) => facts.rows[key] ?? 0;
    const rows: BackupRows = {
      listings: counted('listings'), buyOrders: counted('buyOrders'), drafts: counted('drafts'), draftChanges: counted('draftChanges'), trades: counted('trades'),
    };
    const { dataVersion } = facts;
    const refusal = dataVersion > LATEST_VERSION
      ? `It was saved by a newer version of Marketplace Desk (data version ${dataVersion}; this version reads up to ${LATEST_VERSION}), so this version cannot restore it.`
      : null;
    return { ...base, dataVersion, appVersion: appVersionOf(facts.setting), rows, empty: Object.values(rows).every((n) => n === 0), refusal };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    return { ...base, dataVersion: null, appVersion: null, rows: null, empty: false, refusal: `It cannot be read (${reason}).` };
  }
}

/** Every backup of the profile, newest first, as the screens show them. */
export const describeBackups = (dbPath: string): BackupView[] => listBackups(dbPath).map(describeBackup);

/** The app version a settings value names (JSON text), or null. */
function appVersionOf(setting: string | null): string | null {
  if (setting === null) return null;
  try {
    const value: unknown = JSON.parse(setting);
    return typeof value === 'string' ? value.slice(0, 100) : null;
  } catch {
    return null;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
