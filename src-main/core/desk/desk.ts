import { join } from 'node:path';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { createEmitter, type Emitter, type Unsubscribe } from '../events.ts';
import { createKeyService, type KeyService } from '../key/key-service.ts';
import type { SecretStore } from '../secrets.ts';
import { createSettingsService, type SettingsService } from '../settings/settings-service.ts';
import type { Settings, SettingsPatch } from '../settings/settings.ts';
import { createRepos, openStore, type Store } from '../store/index.ts';
import { openWorkspace, type Workspace } from './workspace.ts';

/**
 * The desk: the app's core, composed once by the main process (and by the
 * end-to-end tests, with the same code). It owns the trader's settings and key
 * and one workspace for the current mode; switching mode replaces the
 * workspace and announces it, so every consumer re-reads its state.
 */
export interface DeskStatus {
  mode: Settings['mode'];
  online: boolean;
  version: string;
  profile: string;
  serviceUrl: string;
}

export interface DeskEvents extends Record<string, unknown> {
  /** A new workspace is live (start, or a mode switch): re-subscribe to its services. */
  workspace: Workspace;
  status: DeskStatus;
}

export interface Desk {
  readonly settings: SettingsService;
  readonly keys: KeyService;
  workspace(): Workspace;
  status(): DeskStatus;
  /** The network came back or went away (desktop online events); shown, not acted on: waking is the caller's. */
  setOnline(online: boolean): void;
  /** After sleep or a network return: beat and check trades at once. */
  wake(): void;
  readonly events: Pick<Emitter<DeskEvents>, 'on'>;
  close(): Promise<void>;
}

/** Settings whose change replaces the workspace (service, ledger file, loop timing). */
export const REOPENING_SETTINGS = ['mode', 'serviceUrl', 'heartbeatIntervalMinutes', 'tradePollSeconds', 'youngAccountDays'] as const;

export function reopensWorkspace(next: Partial<Settings>, previous: Settings): boolean {
  return REOPENING_SETTINGS.some((key) => next[key] !== undefined && next[key] !== previous[key]);
}

export interface DeskDeps {
  dataDir: string;
  profile?: string;
  secrets: SecretStore;
  clock?: Clock;
  version: string;
  /** Settings forced at start (tests: live mode against a simulator's URL). */
  initialSettings?: SettingsPatch;
  /**
   * Starts the embedded simulator that sandbox mode talks to. Injected by the
   * composition root (core never imports the simulator); without it, sandbox
   * mode cannot open.
   */
  openSandbox?: (clock: Clock) => Promise<SimulatedService>;
}

/** What the desk needs of the embedded simulator: where it listens and a key it accepts. */
export interface SimulatedService {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export async function createDesk(deps: DeskDeps): Promise<Desk> {
  const clock = deps.clock ?? systemClock;
  const profile = deps.profile ?? 'default';
  // The home database holds the settings and the live ledger; the sandbox has its own file.
  const home: Store = openStore(join(deps.dataDir, `${profile}.sqlite`), { clock });
  const settings = createSettingsService(createRepos(home).settings, deps.initialSettings);
  const keys = createKeyService({ secrets: deps.secrets, profile });
  const events = createEmitter<DeskEvents>();
  let online = true;
  let sandbox: SimulatedService | null = null;
  let current: Workspace;
  let switching: Promise<void> = Promise.resolve();

  async function open(mode: Settings['mode']): Promise<Workspace> {
    const s = settings.get();
    if (mode === 'sandbox') {
      if (!deps.openSandbox) throw new Error('sandbox mode is not available in this build');
      sandbox ??= await deps.openSandbox(clock);
      const running = sandbox;
      return openWorkspace({
        mode,
        dbPath: join(deps.dataDir, `${profile}.sandbox.sqlite`),
        baseUrl: running.url,
        clock,
        settings: s,
        currentSettings: () => settings.get(),
        apiKey: async () => running.apiKey,
      });
    }
    const ws = openWorkspace({
      mode,
      dbPath: home.path,
      baseUrl: s.serviceUrl,
      clock,
      settings: s,
      currentSettings: () => settings.get(),
      apiKey: () => keys.read(),
      onResponse: (status) => {
        if (status === 401) keys.noteRejected();
        else if (status >= 200 && status < 300) keys.noteAccepted();
      },
    });
    return ws;
  }

  let unwire: Unsubscribe[] = [];
  function wire(ws: Workspace): void {
    for (const off of unwire) off();
    unwire = [];
    // A new key may be good: let blocked work go and beat at once.
    unwire.push(keys.on('status', (key) => {
      if (ws.mode !== 'live' || key.state !== 'unverified' || !key.set) return;
      ws.scheduler.unblock();
      void ws.heartbeat.beatNow().catch(() => undefined);
      void ws.trades.checkNow().catch(() => undefined);
      void ws.trades.refreshBalance().catch(() => undefined);
      void ws.accounts.refresh().catch(() => undefined);
    }));
    // A linked account newly covered must be marked now, not at the next beat.
    unwire.push(ws.accounts.on('changed', () => {
      const wanted = ws.accounts.automatedLinked().sort().join(',');
      const covered = [...ws.heartbeat.state.accounts].sort().join(',');
      if (settings.get().heartbeatEnabled && wanted !== covered) void ws.heartbeat.beatNow().catch(() => undefined);
    }));
  }

  function wake(): void {
    const ws = current;
    if (settings.get().heartbeatEnabled) void ws.heartbeat.beatNow().catch(() => undefined);
    void ws.trades.checkNow().catch(() => undefined);
  }

  const status = (): DeskStatus => ({
    mode: current.mode,
    online,
    version: deps.version,
    profile,
    serviceUrl: current.baseUrl,
  });

  async function replaceWorkspace(mode: Settings['mode']): Promise<void> {
    const previous = current;
    await previous.close();
    current = await open(mode);
    wire(current);
    current.start();
    events.emit('workspace', current);
    events.emit('status', status());
  }

  current = await open(settings.get().mode);
  wire(current);
  current.start();

  settings.on('changed', (next, previous) => {
    const ws = current;
    if (reopensWorkspace(next, previous)) {
      // The loops' timing and the service they talk to are fixed at opening:
      // reopening is the simple, obvious way to apply a change to them.
      switching = switching.then(() => replaceWorkspace(next.mode));
      return;
    }
    if (next.heartbeatEnabled !== previous.heartbeatEnabled) {
      if (next.heartbeatEnabled) ws.heartbeat.start();
      else ws.heartbeat.stop();
    }
  });

  return {
    settings,
    keys,
    workspace: () => current,
    status,
    setOnline(next) {
      if (next === online) return;
      online = next;
      events.emit('status', status());
    },
    wake,
    events: { on: (event, listener) => events.on(event, listener) as Unsubscribe },
    async close() {
      await switching;
      for (const off of unwire) off();
      await current.close();
      home.close();
      await sandbox?.close();
      sandbox = null;
    },
  };
}
