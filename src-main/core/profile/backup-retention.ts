import type { Backup } from './backup-files.ts';

/**
 * Which backups are kept, by age, as backup tools keep snapshots: for each
 * kind of backup, the newest of each of the last 7 days that have one, and
 * the newest of each of the last 4 weeks that have one (days and weeks in
 * UTC, weeks from Monday). The days and weeks counted are those that have a
 * backup, not the calendar's: a desk left closed for a month still has its
 * last week of backups when it opens. Each kind is counted apart, so a
 * restore or a migration never pushes a daily backup out.
 */
export const KEEP_DAILY = 7;
export const KEEP_WEEKLY = 4;

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);
// 1970-01-01 was a Thursday: three days after a Monday.
const weekOf = (ms: number) => Math.floor((dayOf(ms) + 3) / 7);

/** The paths of the backups to keep; every other one may go. */
export function backupsToKeep(backups: readonly Backup[]): Set<string> {
  const keep = new Set<string>();
  const kinds = new Set(backups.map((b) => b.kind));
  for (const kind of kinds) {
    const newestFirst = backups.filter((b) => b.kind === kind).sort((a, b) => b.takenAt - a.takenAt);
    for (const [bucketOf, count] of [[dayOf, KEEP_DAILY], [weekOf, KEEP_WEEKLY]] as const) {
      const buckets = new Set<number>();
      for (const backup of newestFirst) {
        const bucket = bucketOf(backup.takenAt);
        if (buckets.has(bucket)) continue;
        if (buckets.size === count) break;
        buckets.add(bucket);
        keep.add(backup.path);
      }
    }
  }
  return keep;
}
