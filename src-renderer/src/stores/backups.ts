import { defineStore } from 'pinia';
import type { BackupView } from '../../../src-shared/contract.ts';
import { call } from '../bridge/api.ts';

/** A backup as a restore names it: an empty one only with the trader's word that an empty profile is meant. */
export const restoreTarget = (backup: BackupView) => ({ backup: backup.name, ...(backup.empty ? { confirmEmpty: true as const } : {}) });

/**
 * The open profile's automatic backups, and the restore of one of them (main
 * backs the profile up as it is first, then opens the desk again on the
 * backup). Each answer is the screen's own: Settings reads the list afresh
 * whenever it shows it. Both throw DeskError for the panel to show.
 */
export const useBackupsStore = defineStore('backups', () => {
  const list = () => call('backups:list', {});
  const restore = (backup: BackupView) => call('backups:restore', restoreTarget(backup));
  return { list, restore };
});
