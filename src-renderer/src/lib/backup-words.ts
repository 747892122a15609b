import type { BackupView } from '../../../src-shared/contract.ts';
import { formatCount, plural } from './words.ts';

/**
 * A backup as a trader reads it in a list: why it was taken, its size,
 * what it holds and what wrote it. Shared by Settings and the recovery
 * screen, so both say it the same way.
 */

export const BACKUP_KINDS: Record<BackupView['kind'], string> = {
  daily: 'Daily',
  'before-migration': 'Before an update of the data',
  'before-restore': 'Before a restore',
};

/** 0 → "0 B", 18_432 → "18 KB", 5_400_000 → "5.4 MB": a file's size, in the units file managers use. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${formatCount(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'] as const;
  let value = bytes / 1_000;
  let unit = 0;
  while (value >= 1_000 && unit < units.length - 1) {
    value /= 1_000;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** "30 listings, 2 buy orders, 1 draft (12 changes), 4 trades"; "Nothing: an empty profile"; what cannot be read says so. */
export function backupHolds(b: BackupView): string {
  if (b.rows === null) return 'Cannot be read';
  if (b.empty) return 'Nothing: an empty profile';
  const r = b.rows;
  return `${plural(r.listings, 'listing')}, ${plural(r.buyOrders, 'buy order')}, ${plural(r.drafts, 'draft')} (${plural(r.draftChanges, 'change')}), ${plural(r.trades, 'trade')}`;
}

/** "Marketplace Desk 1.4.0, data version 17"; the data version alone when the app that wrote it did not note its own. */
export function backupWrittenBy(b: BackupView): string {
  if (b.dataVersion === null) return 'Unknown';
  return b.appVersion === null ? `Data version ${b.dataVersion}` : `Marketplace Desk ${b.appVersion}, data version ${b.dataVersion}`;
}
