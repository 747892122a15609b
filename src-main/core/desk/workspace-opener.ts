import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { PastEvent } from '../history/past-fill.ts';
import { STEAM_COMMUNITY_URL } from '../inventory/steam-client.ts';
import type { ItemNames } from '../items/item-names.ts';
import type { KeyService } from '../key/key-service.ts';
import { profilePaths } from '../profile/profile-paths.ts';
import type { Settings } from '../settings/settings.ts';
import type { KeyEchoNotice } from './key-echo-notice.ts';
import type { ReachTracker } from './service-reach.ts';
import { openWorkspace, type OpenDatabase, type Workspace } from './workspace.ts';

/**
 * Opens the workspace the settings ask for: live, on the home database with
 * the trader's key, or sandbox, on the profile's sandbox file against the
 * embedded simulator (started the first time, and kept while the desk runs).
 */

/** What the desk needs of the embedded simulator: where it listens and a key it accepts. */
export interface SimulatedService {
  readonly url: string;
  readonly apiKey: string;
  /** Its weeks before the start, which a sandbox profile's History opens on (once: see core/history/past-fill.ts). */
  past?(): { readonly events: Iterable<PastEvent>; readonly ownIds: readonly string[] } | null;
  /** The price source it serves beside it (pricedb.io's API). */
  readonly pricedb?: { readonly url: string };
  close(): Promise<void>;
}

export interface WorkspaceOpenerDeps {
  readonly dataDir: string;
  readonly profile: string;
  /** The home database, open while the desk runs: the live workspace's ledger. */
  readonly home: OpenDatabase;
  readonly clock: Clock;
  readonly names: ItemNames;
  readonly keys: Pick<KeyService, 'read' | 'noteAccepted'>;
  /** The settings as they are now (the trader may change some without reopening). */
  currentSettings(): Settings;
  readonly reach: Pick<ReachTracker, 'listenerForNext'>;
  readonly onKeyEcho: KeyEchoNotice;
  /** Starts the embedded simulator; without it, sandbox mode cannot open. */
  readonly openSandbox?: ((clock: Clock) => Promise<SimulatedService>) | undefined;
  /** Where live mode reads inventories (default Steam's community site). */
  readonly inventoryUrl?: string | undefined;
  /** Where live mode asks pricedb.io for a new profile's source (default pricedb.io itself). */
  readonly pricedbUrl?: string | undefined;
}

export interface WorkspaceOpener {
  open(settings: Settings): Promise<Workspace>;
  /** Stops the simulator, if it was started. */
  closeSandbox(): Promise<void>;
}

export function createWorkspaceOpener(deps: WorkspaceOpenerDeps): WorkspaceOpener {
  const { clock, names, keys } = deps;
  let sandbox: SimulatedService | null = null;
  return {
    async open(s) {
      // What either mode's workspace is opened with; the mode adds its service, ledger file and key.
      const common = { clock, settings: s, names, currentSettings: deps.currentSettings, onReach: deps.reach.listenerForNext(), onKeyEcho: deps.onKeyEcho };
      if (s.mode === 'sandbox') {
        if (!deps.openSandbox) throw new DomainError('conflict', 'Sandbox mode is not available in this build');
        sandbox ??= await deps.openSandbox(clock);
        const running = sandbox;
        const ws = openWorkspace({
          mode: 'sandbox',
          dbPath: profilePaths(deps.dataDir, deps.profile).sandbox,
          baseUrl: running.url,
          ...common,
          apiKey: async () => running.apiKey,
          inventoryUrl: running.url,
          ...(running.pricedb ? { pricedbUrl: running.pricedb.url } : {}),
        });
        // A new sandbox profile opens on the simulator's past weeks, so History has something to show.
        const past = running.past?.() ?? null;
        if (past !== null) ws.history.fillPast(past.events, past.ownIds);
        return ws;
      }
      return openWorkspace({
        mode: 'live',
        lent: deps.home,
        baseUrl: s.serviceUrl,
        ...common,
        apiKey: () => keys.read(),
        onResponse: (status) => {
          if (status >= 200 && status < 300) keys.noteAccepted();
        },
        inventoryUrl: deps.inventoryUrl ?? STEAM_COMMUNITY_URL,
        ...(deps.pricedbUrl ? { pricedbUrl: deps.pricedbUrl } : {}),
      });
    },
    async closeSandbox() {
      await sandbox?.close();
      sandbox = null;
    },
  };
}
