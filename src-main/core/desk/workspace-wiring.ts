import type { Unsubscribe } from '../events.ts';
import type { KeyService } from '../key/key-service.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { Workspace } from './workspace.ts';

/**
 * What ties the trader's key to a live workspace, and its accounts to its
 * heartbeat: wired when the workspace is shown, undone when another replaces it.
 */
export function wireWorkspace(
  ws: Pick<Workspace, 'mode' | 'scheduler' | 'heartbeat' | 'trades' | 'accounts'>,
  desk: { keys: Pick<KeyService, 'on' | 'noteRejected'>; settings: Pick<SettingsService, 'get'> },
): Unsubscribe[] {
  const { keys, settings } = desk;
  return [
    // Another key has its own rate count at the service, and the blocked work may go.
    keys.on('replaced', () => {
      if (ws.mode === 'live') ws.scheduler.newKey();
    }),
    // The key is rejected when the scheduler stops on a 401 for it (one about a replaced key does not stop it).
    ws.scheduler.on('state', (state) => {
      if (ws.mode === 'live' && state.blocked === 'auth') keys.noteRejected();
    }),
    // A new key may be good: beat and read at once.
    keys.on('status', (key) => {
      if (ws.mode !== 'live' || key.state !== 'unverified' || !key.set) return;
      if (settings.get().heartbeatEnabled) void ws.heartbeat.beatNow().catch(() => undefined);
      void ws.trades.checkNow().catch(() => undefined);
      void ws.trades.refreshBalance().catch(() => undefined);
      void ws.accounts.refresh().catch(() => undefined);
    }),
    // A linked account newly covered must be marked now, not at the next beat.
    ws.accounts.on('changed', () => {
      const wanted = ws.accounts.automatedLinked().sort().join(',');
      const covered = [...ws.heartbeat.state.accounts].sort().join(',');
      if (settings.get().heartbeatEnabled && wanted !== covered) void ws.heartbeat.beatNow().catch(() => undefined);
    }),
  ];
}
