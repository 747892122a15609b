/**
 * The data worker: a worker thread that runs the desk (the SQLite store, the
 * drafts engine, the ledger queries, the journal, and the scheduler, heartbeat,
 * trade watcher and apply that journal every request in the same thread) and
 * the IPC router over it. The main thread keeps the window, the tray, the
 * notifications and the bridge, and passes every renderer call here
 * (`desk-connection.ts`), so no query, bulk edit, CSV import or locked
 * database file can hold the app's own event loop.
 *
 * What it answers, pushes and asks is the shared method map
 * (`../core/data/desk-methods.ts`): `desk` (open, close and the shell's
 * commands); the bridge's calls, typed by the contract (its router parses
 * each input: `../core/data/bridge-calls.ts`); the events of WORKER_EVENTS
 * and the bridge's; and of main, the keychain (`secrets`). The simulator is loaded only when sandbox mode
 * starts: a live desk never holds it. When the profile cannot be opened,
 * `open` answers the problem instead of a view, only the recovery screen's
 * channels (`profile:*`) answer, and once the trader's choice opens the
 * profile the worker posts `opened` with the desk's first view. A backup
 * restored from Settings (`profile-backups.ts`) closes the desk and opens it
 * again the same way, posting `opened` once it is.
 */
import { parentPort } from 'node:worker_threads';
import type { z } from 'zod';
import type { ChannelName, IpcResult } from '../../src-shared/contract.ts';
import { scaledClock, systemClock } from '../core/clock.ts';
import { createAsker } from './asker.ts';
import { createDataHost, serveDataHost } from './data-host.ts';
import type { Implementation } from '../core/data/methods.ts';
import type { DataEvent } from '../core/data/protocol.ts';
import type { Desk } from '../core/desk/desk.ts';
import { openProfileDesk, recoverProfileDesk, type ProfileOpeningDeps } from '../core/desk/profile-opening.ts';
import { profilePaths } from '../core/profile/profile-paths.ts';
import { DomainError } from '../core/errors.ts';
import { createRecoveryRouter } from '../ipc/routers/recovery-router.ts';
import type { Unsubscribe } from '../core/events.ts';
import type { SecretStore } from '../core/secrets.ts';
import { logDeskEvents } from '../core/shell/desk-log.ts';
import { createDeskRouter } from '../ipc/routers/desk-router.ts';
import type { BridgeListener, Router } from '../ipc/router.ts';
import { STAMPS_PER_GENERATION, type DeskWorkerConfig } from '../core/data/desk-worker-config.ts';
import { DESK_METHODS, MAIN_METHODS, type WORKER_EVENTS, type WorkerEventName, type WorkerLogLine } from '../core/data/desk-methods.ts';
import { createDeskShell, type DeskShell } from './desk-shell.ts';
import { createProfileBackups, type ProfileBackups } from './profile-backups.ts';

const port = parentPort;
if (!port) throw new Error('desk-worker.ts runs as a worker thread');

// The keychain is main's: its native module must not be torn down with a worker that dies mid-call.
const asker = createAsker(MAIN_METHODS, (message) => port.postMessage(message));
const secrets: SecretStore = {
  state: () => asker.ask('secrets', 'state'),
  get: (account) => asker.ask('secrets', 'get', account),
  set: (account, secret) => asker.ask('secrets', 'set', account, secret),
  delete: (account) => asker.ask('secrets', 'delete', account),
};

function send(message: DataEvent): void {
  try {
    port?.postMessage(message);
  } catch {
    // A value that cannot be cloned (a log field holding a function, say) crosses as JSON.
    port?.postMessage({ event: message.event, payload: JSON.parse(JSON.stringify(message.payload ?? null)) });
  }
}

/** One of the worker's own events (WORKER_EVENTS), for main. */
function post<E extends WorkerEventName>(event: E, payload: z.input<(typeof WORKER_EVENTS)[E]>): void {
  send({ event, payload });
}

/** A bridge event, for the window, under its own name: main reads it by the contract's map. */
const postBridge: BridgeListener = (event, payload) => send({ event, payload });

const line = (level: WorkerLogLine['level']) => (message: string, fields?: Record<string, unknown>) =>
  post('log', { level, message, ...(fields ? { fields } : {}) });
const log = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };

// As in main before: a failure nobody awaited is logged, and the desk goes on.
process.on('unhandledRejection', (error) => log.error('unhandled failure in the data worker', { error }));

interface Open {
  readonly desk: Desk;
  readonly router: Router;
  readonly shell: DeskShell;
  readonly subs: Unsubscribe[];
}
let open: Open | null = null;

/** While the profile could not be opened: the recovery screen's router, until a choice opens it. */
let recovering: Router | null = null;

/** The profile's backups (Settings), once the desk was asked to open. */
let backups: ProfileBackups | null = null;
/** Set while a restore has closed the desk and not yet opened it again. */
let reopening = false;

const current = (): Open => {
  if (!open) {
    if (reopening) throw new DomainError('busy', 'The desk is opening again on the restored backup. Try again in a moment');
    throw new Error('the desk is not open');
  }
  return open;
};

type Methods = Implementation<typeof DESK_METHODS>;

/**
 * The desk answers the window's first rows before it starts talking to the
 * service (its first requests load the HTTP client) and loading item names:
 * its services start once the first `ledger:page` is answered, or after
 * SERVICES_GRACE_MS when no window asks (closed to the tray, another screen).
 */
const SERVICES_GRACE_MS = 1_000;
let firstPageAnswered: () => void = () => undefined;
const firstPage = new Promise<void>((resolve) => {
  firstPageAnswered = resolve;
  setTimeout(resolve, SERVICES_GRACE_MS).unref();
});

function openingDeps(config: DeskWorkerConfig): ProfileOpeningDeps {
  return {
    dataDir: config.dataDir,
    ...(config.profile ? { profile: config.profile } : {}),
    secrets,
    clock: config.clock ? scaledClock(config.clock.scale, config.clock.origin) : systemClock,
    version: config.version,
    lockToken: config.lockToken,
    ...(config.initialSettings ? { initialSettings: config.initialSettings } : {}),
    ...(config.inventoryUrl ? { inventoryUrl: config.inventoryUrl } : {}),
    ...(config.pricedbUrl ? { pricedbUrl: config.pricedbUrl } : {}),
    // Only sandbox mode needs the simulator: a live desk never loads it. The app's sandbox is a world worth
    // watching: completed trades move the balance, so History can tell them; and its inventories are ones a
    // TF2 backpack can hold (3,000), which a read of Steam's takes whole.
    openSandbox: async (c) => (await import('../sandbox/index.ts')).startSandbox({ clock: c, tradeMoney: true, inventorySize: 2_500, ...config.sandbox }),
    onBackup: (made) => {
      log.info('daily backup made', { file: made.path });
      backups?.made(made);
    },
    onBackupError: (error) => {
      log.warn('the daily backup failed', { error });
      backups?.failed(error);
    },
    onOpenFailure: (error) => log.error('the profile could not be opened', { error }),
    servicesAfter: firstPage,
  };
}

/** The desk is open: its router answers the bridge, and its shell reports to main. */
function serve(opened: Desk, config: DeskWorkerConfig) {
  const { router } = createDeskRouter(opened, { openLink: (url) => post('openLink', url) }, {
    // Main reads every reply and event by the contract as it arrives (core/data/bridge-calls.ts): not twice.
    checkOutputs: false,
    onUnexpected: (where, error) => log.error('unexpected failure', { where, error }),
    stampBase: config.generation * STAMPS_PER_GENERATION,
    // Screens that were showing the desk before its worker died read everything again.
    announceAtStart: config.generation > 0,
    ...(backups ? { backups } : {}),
  });
  const shell = createDeskShell(opened.services);
  const subs = [
    router.subscribe(postBridge),
    shell.on('view', (view) => post('view', view)),
    shell.on('needsAction', (list) => post('needsAction', [...list])),
    shell.on('pending', (list) => post('pending', [...list])),
    shell.on('notice', (notice) => post('notice', notice)),
    shell.on('key', (key) => post('key', key)),
    logDeskEvents(opened.services, log),
  ];
  open = { desk: opened, router, shell, subs };
  return shell.view();
}

/** Opens the profile and serves the desk, or, when it cannot be opened, the recovery screen until a choice opens it. */
async function openAndServe(config: DeskWorkerConfig, deps: ProfileOpeningDeps) {
  const outcome = await openProfileDesk(deps);
  if (outcome.desk) return { view: serve(outcome.desk, config), problem: null };
  // Only the recovery screen's channels answer, until the trader's choice opens the profile.
  recovering = createRecoveryRouter({
    problem: outcome.problem,
    recover: (problem, input) => recoverProfileDesk(deps, problem, input),
    checkOutputs: false,
    onUnexpected: (where, error) => log.error('unexpected failure', { where, error }),
    onOpened(opened) {
      recovering = null;
      post('opened', serve(opened, config));
    },
  });
  return { view: null, problem: outcome.problem };
}

/** Closes the desk served now: nothing more is pushed, its store is checkpointed and its lock let go. */
async function closeServed(): Promise<void> {
  const was = open;
  open = null;
  recovering = null;
  if (!was) return;
  for (const off of was.subs) off();
  was.shell.dispose();
  await was.desk.close();
}

const desk: Methods['desk'] = {
  /** Opens the desk: its first view, or the problem that kept the profile from opening. */
  async open(config) {
    if (open || recovering) throw new Error('the desk is already open');
    const deps = openingDeps(config);
    const paths = profilePaths(config.dataDir, config.profile ?? 'default');
    backups = createProfileBackups({
      homePath: paths.home,
      lockPath: paths.lock,
      lockToken: config.lockToken,
      clock: deps.clock ?? systemClock,
      appliesRunning: () => open?.desk.services.apply().handles().length ?? 0,
      async close() {
        reopening = true;
        await closeServed();
      },
      // The desk opens again as at start; main is told with its first view, as after the recovery screen.
      async reopen() {
        try {
          const again = await openAndServe(config, deps);
          if (again.view) post('opened', again.view);
        } finally {
          reopening = false;
        }
      },
    });
    return openAndServe(config, deps);
  },
  view: () => current().shell.view(),
  updateSettings: (patch) => current().shell.updateSettings(patch),
  checkTradesNow: () => current().shell.checkTradesNow(),
  beatNow: () => current().shell.beatNow(),
  setOnline: (online) => current().shell.setOnline(online),
  diagnostics: () => current().shell.diagnostics(),
  suspendApplies: () => current().shell.suspendApplies(),
  close: closeServed,
};

/** A call of the bridge: the router serving now parses its input (the door) and answers it. */
async function bridge(channel: ChannelName, input: unknown): Promise<IpcResult<unknown>> {
  const result = await (recovering ?? current().router).invoke(channel, input);
  // After this reply is on its way.
  if (channel === 'ledger:page') setImmediate(firstPageAnswered);
  return result;
}

const host = createDataHost({
  methods: DESK_METHODS,
  targets: () => ({ desk }),
  bridge,
  onUnexpected: (where, error) => log.error('unexpected failure in the data worker', { where, error }),
});
serveDataHost(port, host, asker);
