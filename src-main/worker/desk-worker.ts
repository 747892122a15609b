/**
 * The data worker: a worker thread that runs the desk (the SQLite store, the
 * drafts engine, the ledger queries, the journal, and the scheduler, heartbeat,
 * trade watcher and apply that journal every request in the same thread) and
 * the IPC router over it. The main thread keeps the window, the tray, the
 * notifications and the bridge, and passes every renderer call here
 * (`desk-connection.ts`), so no query, bulk edit, CSV import or locked
 * database file can hold the app's own event loop.
 *
 * Targets it answers: `desk` (open, close and the shell's commands) and
 * `router` (the bridge's calls). Events it posts: see WORKER_EVENTS. What it
 * asks of main: the keychain (`secrets`).
 */
import { parentPort } from 'node:worker_threads';
import { scaledClock, systemClock } from '../core/clock.ts';
import { createDataHost } from '../core/data/host.ts';
import { createDesk, type Desk } from '../core/desk/desk.ts';
import type { Unsubscribe } from '../core/events.ts';
import type { SettingsPatch } from '../core/settings/settings.ts';
import { logDeskEvents } from '../core/shell/desk-log.ts';
import { createAsker } from '../core/data/asker.ts';
import type { SecretStore } from '../core/secrets.ts';
import { createDeskRouter } from '../ipc/desk-router.ts';
import type { Router } from '../ipc/router.ts';
import { startSandbox } from '../sandbox/index.ts';
import { deskWorkerConfig, STAMPS_PER_GENERATION, type WorkerEventName, type WorkerLogLine } from './config.ts';
import { createDeskShell, type DeskShell } from './desk-shell.ts';

const port = parentPort;
if (!port) throw new Error('desk-worker.ts runs as a worker thread');

// The keychain is main's: its native module must not be torn down with a worker that dies mid-call.
const asker = createAsker((message) => port.postMessage(message));
const secrets: SecretStore = {
  state: () => asker.ask('secrets', 'state', []) as ReturnType<SecretStore['state']>,
  get: (account) => asker.ask('secrets', 'get', [account]) as Promise<string | null>,
  set: async (account, secret) => void (await asker.ask('secrets', 'set', [account, secret])),
  delete: (account) => asker.ask('secrets', 'delete', [account]) as Promise<boolean>,
};

function post(event: WorkerEventName, payload: unknown): void {
  try {
    port?.postMessage({ event, payload });
  } catch {
    // A value that cannot be cloned (a log field holding a function, say) crosses as JSON.
    port?.postMessage({ event, payload: JSON.parse(JSON.stringify(payload ?? null)) as unknown });
  }
}

const line = (level: WorkerLogLine['level']) => (message: string, fields?: Record<string, unknown>) =>
  post('log', { level, message, ...(fields ? { fields } : {}) } satisfies WorkerLogLine);
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

const current = (): Open => {
  if (!open) throw new Error('the desk is not open');
  return open;
};

const desk = {
  async open(raw: unknown) {
    if (open) throw new Error('the desk is already open');
    const config = deskWorkerConfig.parse(raw);
    const clock = config.clock ? scaledClock(config.clock.scale, config.clock.origin) : systemClock;
    const opened = await createDesk({
      dataDir: config.dataDir,
      ...(config.profile ? { profile: config.profile } : {}),
      secrets,
      clock,
      version: config.version,
      ...(config.initialSettings ? { initialSettings: config.initialSettings } : {}),
      ...(config.inventoryUrl ? { inventoryUrl: config.inventoryUrl } : {}),
      openSandbox: (c) => startSandbox({ clock: c, ...config.sandbox }),
    });
    const { router } = createDeskRouter(opened, { openLink: (url) => post('openLink', url) }, {
      checkOutputs: config.checkOutputs,
      onUnexpected: (where, error) => log.error('unexpected failure', { where, error }),
      stampBase: config.generation * STAMPS_PER_GENERATION,
      // Screens that were showing the desk before its worker died read everything again.
      announceAtStart: config.generation > 0,
    });
    const shell = createDeskShell(opened);
    const subs = [
      router.subscribe((event, payload) => post('bridge', { event, payload })),
      shell.on('view', (view) => post('view', view)),
      shell.on('needsAction', (list) => post('needsAction', list)),
      shell.on('pending', (list) => post('pending', list)),
      shell.on('key', (key) => post('key', key)),
      logDeskEvents(opened, log),
    ];
    open = { desk: opened, router, shell, subs };
    return { view: shell.view() };
  },
  view: () => current().shell.view(),
  updateSettings: (patch: SettingsPatch) => current().shell.updateSettings(patch),
  checkTradesNow: () => current().shell.checkTradesNow(),
  beatNow: () => current().shell.beatNow(),
  setOnline: (online: boolean) => current().shell.setOnline(online === true),
  diagnostics: () => current().shell.diagnostics(),
  suspendApplies: () => current().shell.suspendApplies(),
  draftFolded: (draftId: string) => current().shell.draftFolded(draftId),
  async close() {
    const was = open;
    open = null;
    if (!was) return;
    for (const off of was.subs) off();
    was.shell.dispose();
    await was.desk.close();
  },
};

const router = {
  invoke: (channel: unknown, input: unknown) => current().router.invoke(String(channel), input),
};

const host = createDataHost({
  targets: () => ({ desk, router }),
  onUnexpected: (where, error) => log.error('unexpected failure in the data worker', { where, error }),
});
port.on('message', (message: unknown) => {
  if (asker.settle(message)) return;
  void host.handle(message).then(({ reply, transfer }) => port.postMessage(reply, transfer));
});
