import type { BackupView } from '../../src-shared/contract.ts';

/** Backups as main lists them, for the renderer's tests: taken on 2025-11-20 + `day`, 08:00 local time. */
export function backupView(day: number, over: Partial<BackupView> = {}): BackupView {
  const takenAt = new Date(2025, 10, 20 + day, 8, 0, 0).getTime();
  const name = `default.backup-202511${20 + day}T080000000Z.sqlite`;
  return {
    name,
    file: `/home/t/.config/Marketplace Desk/profiles/backups/${name}`,
    takenAt,
    kind: 'daily',
    sizeBytes: 2_400_000,
    dataVersion: 17,
    appVersion: '1.4.0',
    rows: { listings: 1_204, buyOrders: 31, drafts: 2, draftChanges: 57, trades: 1 },
    empty: false,
    refusal: null,
    ...over,
  };
}

export const EMPTY_ROWS = { listings: 0, buyOrders: 0, drafts: 0, draftChanges: 0, trades: 0 };
