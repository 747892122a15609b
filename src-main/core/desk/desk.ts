import { randomUUID } from '../node-crypto.ts';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { watchForSleep } from '../sleep-watch.ts';
import { createEmitter, type Emitter, type Unsubscribe } from '../events.ts';
import { createKeyService, type KeyService } from '../key/key-service.ts';
import type { KeyTester } from '../key/key-test.ts';
import type { SecretStore } from '../secrets.ts';
import { createSettingsService, type SettingsService } from '../settings/settings-service.ts';
import type { Settings, SettingsPatch } from '../settings/settings.ts';
import { createRepos } from '../store/index.ts';
import { serviceUrlProblem } from '../../../src-shared/fields.ts';
import type { DeskStatusView } from '../../../src-shared/views.ts';
import { createItemNames, type ItemNames } from '../items/index.ts';
import { deskServices, type DeskServices } from './desk-services.ts';
import { applyLive, changesService, checkedSettingsPatch } from './settings-change.ts';
import { createKeyChecks } from './key-checks.ts';
import { createReachTracker } from './service-reach.ts';
import { keyEchoNotice } from './key-echo-notice.ts';
import { createWorkspaceOpener, type SimulatedService } from './workspace-opener.ts';
import { wireWorkspace } from './workspace-wiring.ts';
import type { Workspace } from './workspace.ts';
import { withProfileLock, type ProfileLock } from '../profile/profile-lock.ts';
import { profilePaths } from '../profile/profile-paths.ts';
import { openHomeStore } from '../profile/home-store.ts';
import type { Backup } from '../profile/backup-files.ts';
import type { AlertsDeps } from '../alerts/alerts-service.ts';
import { createDeskAlerts, followWithAlerts } from './desk-alerts.ts';

/**
 * The desk: the app's core, composed once by the main process (and by the
 * end-to-end tests, with the same code). It owns the trader's settings and key
 * and one workspace for the current mode. Settings that only change timing
 * apply to the running workspace; a change of service (mode or URL) opens the
 * new workspace before closing the old one, and keeps the old one when the
 * new one cannot open, saying why.
 */
export type DeskStatus = DeskStatusView;

export interface DeskEvents extends Record<string, unknown> {
  /** A new workspace is live (start, or a switch of service): re-subscribe to its services. */
  workspace: Workspace;
  status: DeskStatus;
}

export interface Desk {
  readonly settings: Pick<SettingsService, 'get' | 'on' | 'notKept'>;
  readonly keys: KeyService;
  /** "Test key": asks the live service with the stored key, in sandbox mode too. */
  readonly keyTest: Pick<KeyTester, 'test' | 'last' | 'on'>;
  workspace(): Workspace;
  status(): DeskStatus;
  /**
   * Validates and applies a settings change: live where it can be, by
   * switching workspace where the service changes. Rejects with a kinded
   * error (nothing changed) when the change cannot be made.
   */
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  /** The network came back or went away (desktop online events); shown, not acted on: waking is the caller's. */
  setOnline(online: boolean): void;
  /** After sleep or a network return: beat and check trades at once. */
  wake(): void;
  readonly events: Pick<Emitter<DeskEvents>, 'on'>;
  /** The desk's services, handed to those who use them (see desk-services.ts). */
  readonly services: DeskServices;
  close(): Promise<void>;
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
  /** Item names (tests pass a shared one to load the schema once). */
  names?: ItemNames;
  /**
   * Who holds the profile's lock: a desk opened again by the same owner (the
   * data worker restarted after it died) passes the same token and takes its
   * own lock over. Default: a new one, so another desk on the profile is refused.
   */
  lockToken?: string;
  /** A daily backup was made. */
  onBackup?: (backup: Backup) => void;
  /** A daily backup failed (it is tried again an hour later). */
  onBackupError?: (error: unknown) => void;
  /**
   * Where live mode reads inventories: Steam's community site unless a test
   * points live mode at the simulator (sandbox mode always reads the simulator's).
   */
  inventoryUrl?: string;
  /** Where a new live profile's pricedb.io source asks (tests: the simulator's); default pricedb.io itself. */
  pricedbUrl?: string;
  /**
   * When the desk starts talking to the service and loading item names:
   * once this settles (the app: its first screen answered). Default at once.
   */
  servicesAfter?: Promise<void>;
  /** Timings of the alerts' sender (tests shorten them). */
  alertSending?: AlertsDeps['sending'];
}

/**
 * Opens the desk on its profile, which it holds alone (see profile-lock.ts):
 * a profile another desk has open is refused with a `conflict` that says so,
 * and nothing of it is touched.
 */
export function createDesk(deps: DeskDeps): Promise<Desk> {
  const clock = deps.clock ?? systemClock;
  const profile = deps.profile ?? 'default';
  const lock = { path: profilePaths(deps.dataDir, profile).lock, token: deps.lockToken ?? randomUUID(), now: () => clock.now() };
  return withProfileLock(lock, (held) => openDesk(deps, clock, profile, held));
}

async function openDesk(deps: DeskDeps, clock: Clock, profile: string, lock: ProfileLock): Promise<Desk> {
  // The home database holds the settings and the live ledger, and is backed up; the sandbox has its own file.
  const { store: home, backups } = openHomeStore(profilePaths(deps.dataDir, profile).home, {
    clock, version: deps.version,
    ...(deps.onBackup ? { onBackup: deps.onBackup } : {}),
    ...(deps.onBackupError ? { onBackupError: deps.onBackupError } : {}),
  });
  const homeRepos = createRepos(home);
  const settings = createSettingsService(homeRepos.settings, deps.initialSettings);
  const keys = createKeyService({ secrets: deps.secrets, profile });
  const events = createEmitter<DeskEvents>();
  const names = deps.names ?? createItemNames();
  let online = true;
  let switchProblem: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  // Whether the shown workspace's service answered; answers of a workspace being replaced do not count.
  const reach = createReachTracker(clock, () => events.emit('status', status()));
  const workspaces = createWorkspaceOpener({
    dataDir: deps.dataDir, profile, home: { store: home, repos: homeRepos }, clock, names, keys, reach,
    currentSettings: () => settings.get(),
    onKeyEcho: keyEchoNotice(),
    openSandbox: deps.openSandbox,
    inventoryUrl: deps.inventoryUrl,
    pricedbUrl: deps.pricedbUrl,
  });
  const alerts = createDeskAlerts({
    home: homeRepos.settings, secrets: deps.secrets, profile, clock, version: deps.version, current: () => current,
    ...(deps.alertSending ? { sending: deps.alertSending } : {}),
  });
  let unwire: Unsubscribe[] = [];
  function wire(ws: Workspace): void {
    for (const off of unwire) off();
    unwire = wireWorkspace(ws, { keys, settings });
    followWithAlerts(alerts, ws);
  }

  /** A saved service URL that no longer passes is replaced by the default: said until the trader sets one. */
  const savedUrlProblem = (): string | null => {
    const dropped = settings.notKept().find((n) => n.key === 'serviceUrl');
    return dropped ? `The saved service URL ${dropped.reason}, so the default (${settings.get().serviceUrl}) is used. Set the right one in Settings.` : null;
  };

  const status = (): DeskStatus => ({
    mode: current.mode,
    online,
    version: deps.version,
    profile,
    serviceUrl: current.baseUrl,
    serviceProblem: switchProblem ?? (current.mode === 'live' ? serviceUrlProblem(current.baseUrl) ?? savedUrlProblem() : null),
    reach: reach.current(),
  });

  let current: Workspace;
  try {
    current = await workspaces.open(settings.get());
  } catch (error) {
    await alerts.close();
    await backups.stop();
    home.close();
    await workspaces.closeSandbox();
    throw error;
  }
  reach.showLatest();
  wire(current);
  // The heartbeat, the trade watcher and the accounts start once the first screen is answered: a start's first
  // requests load the HTTP client, and the window waits for its rows. The item names those rows show load on the
  // next turn, while main connects the window (reading their schema files takes about 15 ms).
  void names.warm().catch(() => undefined);
  let closed = false;
  let started = false;
  const startServices = () => {
    if (started || closed) return;
    started = true;
    current.start();
  };
  if (deps.servicesAfter) void deps.servicesAfter.then(startServices, startServices);
  else startServices();

  function wake(): void {
    const ws = current;
    if (settings.get().heartbeatEnabled) void ws.heartbeat.beatNow().catch(() => undefined);
    void ws.trades.checkNow().catch(() => undefined);
  }
  // A night with the lid closed stops the monotonic clock the heartbeat plans on: the wall clock tells.
  const sleepWatch = watchForSleep({ clock, onWake: wake });

  const keyChecks = createKeyChecks({
    keys, clock, settings, current: () => current,
    unreachableWhy: () => (reach.current().state === 'unreachable' ? reach.current().why : null),
  });

  /** Opens the workspace for `next` while the current one runs; swaps only when it opened. */
  async function switchService(next: Settings): Promise<void> {
    if (current.apply.handles().length > 0) {
      throw new DomainError('conflict', 'An apply is running. Change the service when it has finished, or cancel it first');
    }
    let replacement: Workspace;
    try {
      replacement = await workspaces.open(next);
    } catch (error) {
      switchProblem = `Could not switch to ${next.mode === 'live' ? 'the live service' : 'sandbox mode'}: ${reasonOf(error)}. The desk stays on ${current.mode === 'live' ? 'the live service' : 'the sandbox'}.`;
      events.emit('status', status());
      throw new DomainError('conflict', switchProblem);
    }
    // A key just tested from sandbox mode used some of this service's slots: the new scheduler waits for them.
    keyChecks.opening(replacement);
    const previous = current;
    current = replacement;
    reach.showLatest();
    switchProblem = null;
    wire(current);
    await previous.close();
    await keyChecks.opened(current);
    started = true;
    current.start();
    events.emit('workspace', current);
    events.emit('status', status());
  }

  async function updateSettings(patch: SettingsPatch): Promise<Settings> {
    const checked = checkedSettingsPatch(patch);
    const previous = settings.get();
    if (changesService(checked, previous)) await switchService({ ...previous, ...checked });
    const next = settings.update(checked);
    if (!changesService(checked, previous)) applyLive(current, next, previous);
    return next;
  }

  // One change at a time: a switch of service takes a moment, and the next change must see its result.
  const queuedUpdate = (patch: SettingsPatch): Promise<Settings> => {
    const run = queue.then(() => updateSettings(patch));
    queue = run.catch(() => undefined);
    return run;
  };
  const setOnline = (next: boolean): void => {
    if (next === online) return;
    online = next;
    events.emit('status', status());
  };
  const services = deskServices({
    settings, keys, keyTest: keyChecks.tester, alerts, status, updateSettings: queuedUpdate, setOnline,
    workspace: () => current,
    onWorkspace: (listener) => events.on('workspace', () => listener()),
    onStatus: (listener) => events.on('status', listener),
  });

  return {
    settings,
    keys,
    keyTest: keyChecks.tester,
    workspace: () => current,
    status,
    updateSettings: queuedUpdate,
    setOnline,
    wake,
    events: { on: (event, listener) => events.on(event, listener) as Unsubscribe },
    services,
    async close() {
      closed = true;
      sleepWatch.stop();
      await queue;
      for (const off of unwire) off();
      await alerts.close();
      await keyChecks.close();
      await current.close();
      await backups.stop();
      home.close();
      await workspaces.closeSandbox();
      lock.release();
    },
  };
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}
