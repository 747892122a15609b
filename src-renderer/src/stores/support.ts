import { defineStore } from 'pinia';
import { call } from '../bridge/api.ts';

/** What a bug report needs: the logs folder, and the diagnostics bundle main writes (never holding the key). Throw DeskError. */
export const useSupportStore = defineStore('support', () => {
  const openLogsFolder = async () => void (await call('support:openLogsFolder', {}));
  /** Asks where to save, then writes it; `saved` is false when the trader cancelled. */
  const saveDiagnostics = () => call('support:saveDiagnostics', {});
  return { openLogsFolder, saveDiagnostics };
});
