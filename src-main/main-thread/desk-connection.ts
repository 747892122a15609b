import { randomUUID } from 'node:crypto';
import {
  CHANNEL_NAMES, EVENT_NAMES, isChannelName, isDeskChannel,
  type AppStatus, type ChannelOutput, type DeskChannel, type EventName, type EventPayload, type IpcResult, type MainChannel, type ProfileProblem,
} from '../../src-shared/contract.ts';
import { createDataClient, type DataClientState, type WorkerPort } from './data-client.ts';
import type { Liveness } from './liveness.ts';
import { createPageWarmup } from './page-warmup.ts';
import { readBridgeEvent } from '../core/data/bridge-calls.ts';
import { dispatchEvent, type EventHandlers, type Implementation } from '../core/data/methods.ts';
import type { DataEvent } from '../core/data/protocol.ts';
import { createEmitter, type Unsubscribe } from '../core/events.ts';
import type { SecretStore } from '../core/secrets.ts';
import type { SettingsPatch } from '../core/settings/settings.ts';
import type { AppLog } from '../core/shell/app-log.ts';
import type { TradeForNotice, TradeRef } from '../core/shell/notification-groups.ts';
import type { DeskNotice } from '../core/shell/reprice-notice.ts';
import { boundedView, loggableFailure, toErrorView } from '../ipc/error-view.ts';
import { shellHandlers } from '../ipc/handlers/shell.ts';
import type { Platform } from '../ipc/handlers/platform.ts';
import { createRouter, unreadableReply, type BridgeListener, type EmitEvent, type Handlers, type Router } from '../ipc/router.ts';
import type { DeskWorkerConfig } from '../core/data/desk-worker-config.ts';
import { DESK_METHODS, MAIN_METHODS, WORKER_EVENTS, type DeskDiagnostics, type DeskShellView } from '../core/data/desk-methods.ts';

/**
 * The main thread's side of the data worker (`../worker/desk-worker.ts`): it starts the
 * worker and opens the desk in it, restarts both when the worker dies (the
 * journal resumes an apply that was under way), and gives the main thread
 *   - the bridge's router: the channels the contract says main answers (logs,
 *     updates: they need Electron) answered here, every other call passed to
 *     the worker; the worker's events passed on, and "restarting the store"
 *     said on `app:status` while it restarts;
 *   - the desk as the tray, notifications, power events and quit need it: a
 *     view pushed by the worker on every change, and a few commands.
 */

export type MainDeskEvents = {
  view: { readonly view: DeskShellView; readonly previous: DeskShellView };
  needsAction: readonly TradeForNotice[];
  pending: readonly TradeRef[];
  notice: DeskNotice;
  key: string | null;
  store: DataClientState;
};

export interface MainDesk {
  view(): DeskShellView;
  /** The stored key as the worker last said (null before it did, or when none is set): for scrubbing logs. */
  knownKey(): string | null;
  /** The store's worker: ready, restarting after it died, failed (stopped too often), or closed. */
  storeState(): DataClientState;
  on<E extends keyof MainDeskEvents>(event: E, listener: (payload: MainDeskEvents[E]) => void): Unsubscribe;
  updateSettings(patch: SettingsPatch): Promise<void>;
  checkTradesNow(): Promise<void>;
  beatNow(): Promise<void>;
  setOnline(online: boolean): Promise<void>;
  diagnostics(): Promise<DeskDiagnostics>;
  suspendApplies(): Promise<void>;
}

export interface DeskConnection {
  readonly router: Router;
  /** Pushes an event of main's own (a notification click asks to show a trade). */
  readonly emit: EmitEvent;
  /**
   * Why the profile could not be opened, while it cannot: then `desk` has
   * no view yet, and only the recovery screen's channels answer.
   */
  problem(): ProfileProblem | null;
  /** Settles once the desk is open (at once when it opened at start). */
  whenOpen(): Promise<void>;
  readonly desk: MainDesk;
  /** Closes the desk (its store checkpointed) and ends the worker. */
  close(): Promise<void>;
  /** Ends the worker as a crash would (tests of the restart). */
  kill(): Promise<void>;
}

export interface DeskConnectionOptions {
  spawn(): WorkerPort;
  /** The keychain, kept on the main thread: the worker asks for the key through it. */
  secrets: SecretStore;
  config: Omit<DeskWorkerConfig, 'generation' | 'lockToken'>;
  /** Main's links, logs folder, diagnostics and updates. */
  platform: Platform;
  log: Pick<AppLog, 'debug' | 'info' | 'warn' | 'error'>;
  /** How a worker that stopped answering is found (default DEFAULT_LIVENESS; tests shorten it). */
  liveness?: Liveness;
}

export async function connectDesk(options: DeskConnectionOptions): Promise<DeskConnection> {
  const { log } = options;
  const events = createEmitter<MainDeskEvents>();
  const bridgeListeners = new Set<BridgeListener>();
  let view: DeskShellView | null = null;
  let lastStatus: AppStatus | null = null;
  let lastKey: string | null = null;
  let starts = 0;
  // Set while the profile could not be opened (the recovery screen shows it).
  let problem: ProfileProblem | null = null;
  const openedWaiters: Array<() => void> = [];
  // Every start of the worker holds the profile's lock under this one token.
  const lockToken = randomUUID();

  const toBridge: BridgeListener = (event, payload) => {
    for (const listener of [...bridgeListeners]) listener(event, payload);
  };
  // What main itself keeps of the bridge's events.
  const noted: { readonly [E in EventName]?: (payload: EventPayload<E>) => void } = {
    'app:status': (status) => (lastStatus = status),
  };
  const fromWorker: BridgeListener = (event, payload) => {
    noted[event]?.(payload);
    toBridge(event, payload);
  };

  function setView(next: DeskShellView): void {
    const previous = view ?? next;
    view = next;
    events.emit('view', { view: next, previous });
  }

  // Events of the worker's first start (its log lines as it opens the desk) count too.
  const handlers: EventHandlers<typeof WORKER_EVENTS> = {
    view: setView,
    needsAction: (list) => events.emit('needsAction', list),
    pending: (list) => events.emit('pending', list),
    notice: (notice) => events.emit('notice', notice),
    key: (key) => {
      lastKey = key;
      events.emit('key', key);
    },
    openLink: (url) => void Promise.resolve(options.platform.openLink(url)).catch(() => undefined),
    opened: (first) => {
      // The trader's choice on the recovery screen opened the profile.
      problem = null;
      setView(first);
      for (const resolve of openedWaiters.splice(0)) resolve();
    },
    log: (l) => log[l.level](l.message, l.fields),
  };
  // Each event is read by the map that names it: the contract's for the bridge's, WORKER_EVENTS for the desk's own.
  const onEvent = ({ event, payload }: DataEvent) => {
    if (readBridgeEvent(event, payload, fromWorker) || dispatchEvent(WORKER_EVENTS, handlers, event, payload)) return;
    log.error('the data worker sent an event that does not fit the boundary', { event });
  };

  const answers: Implementation<typeof MAIN_METHODS> = {
    // The keychain's four calls, and nothing else, for the worker.
    secrets: {
      state: () => options.secrets.state(),
      get: (account) => options.secrets.get(account),
      set: (account, secret) => options.secrets.set(account, secret),
      delete: (account) => options.secrets.delete(account),
    },
  };

  const client = await createDataClient({
    methods: DESK_METHODS,
    spawn: options.spawn,
    async onStart(call) {
      const opened = await call('desk', 'open', { ...options.config, lockToken, generation: starts });
      starts += 1;
      if (opened.view) setView(opened.view);
      else problem = opened.problem;
    },
    onEvent,
    onWorkerError: (error) => log.error('data worker failed', { error }),
    onHang: (silentMs) => log.error('data worker stopped answering; ending it', { silentMs }),
    answers: { methods: MAIN_METHODS, implementation: answers },
    ...(options.liveness ? { liveness: options.liveness } : {}),
  });

  client.on('state', (state) => {
    events.emit('store', state);
    if (state === 'restarting' || state === 'failed') {
      log.error('data worker stopped', { state });
      // Every screen says so until the new desk announces itself (with stamps beyond these).
      if (lastStatus) {
        lastStatus = { ...lastStatus, stamp: lastStatus.stamp + 1, store: state };
        toBridge('app:status', lastStatus);
      }
    } else if (state === 'ready') {
      log.info('data worker started again');
    }
  });

  let emitLocal: EmitEvent = () => undefined;
  const mainHandlers: Pick<Handlers, MainChannel> = shellHandlers(options.platform);
  const local = createRouter(mainHandlers, {
    // The shell's channels and events are few and small: always checked.
    checkOutputs: true,
    connectEvents(e) {
      emitLocal = e;
    },
    onUnexpected: (where, error) => log.error('unexpected failure', { where, error }),
  });

  /** A call of the desk's: its reply read by the channel's output schema as it arrives (see bridge-calls.ts). */
  async function askDesk<C extends DeskChannel>(channel: C, input: unknown): Promise<IpcResult<ChannelOutput<C>>> {
    try {
      const reply = await client.bridge(channel, input);
      if ('result' in reply) return reply.result;
      log.error('unexpected failure', { where: channel, error: loggableFailure(new Error(reply.misfit)) });
      return { ok: false, error: { kind: 'internal', message: unreadableReply(channel) } };
    } catch (error) {
      // The worker restarting (busy) or gone; or an input that cannot cross a thread.
      return { ok: false, error: boundedView(toErrorView(error)) };
    }
  }

  // The first pages a trader scrolls to do not wait for main's check of them to compile.
  const warmup = createPageWarmup(log);

  const router: Router = {
    channels: CHANNEL_NAMES,
    events: EVENT_NAMES,
    async invoke(channel, input) {
      // Main's own channels, and names outside the contract, are answered here.
      if (typeof channel !== 'string' || !isChannelName(channel) || !isDeskChannel(channel)) return local.invoke(channel, input);
      if (channel === 'ledger:page') return warmup.page(() => askDesk(channel, input));
      if (channel !== 'app:status') return warmup.around(() => askDesk(channel, input));
      // The status a screen asked for counts as much as one pushed: a worker that dies before it pushed any is still said.
      const status = await warmup.around(() => askDesk(channel, input));
      if (status.ok) lastStatus = status.value;
      return status;
    },
    subscribe(listener) {
      bridgeListeners.add(listener);
      const off = local.subscribe(listener);
      return () => {
        bridgeListeners.delete(listener);
        off();
      };
    },
  };

  const { call } = client;
  const desk: MainDesk = {
    view: () => {
      if (!view) throw new Error('the desk is not open');
      return view;
    },
    knownKey: () => lastKey,
    storeState: () => client.state,
    on: (event, listener) => events.on(event, listener),
    updateSettings: (patch) => call('desk', 'updateSettings', patch),
    checkTradesNow: () => call('desk', 'checkTradesNow'),
    beatNow: () => call('desk', 'beatNow'),
    setOnline: (online) => call('desk', 'setOnline', online),
    diagnostics: () => call('desk', 'diagnostics'),
    suspendApplies: () => call('desk', 'suspendApplies'),
  };

  return {
    router,
    emit: (event, payload) => emitLocal(event, payload),
    problem: () => problem,
    whenOpen: () => (view !== null ? Promise.resolve() : new Promise<void>((resolve) => openedWaiters.push(resolve))),
    desk,
    async close() {
      await call('desk', 'close').catch((error: unknown) => log.error('closing the desk failed', { error }));
      await client.close();
    },
    kill: () => client.kill(),
  };
}
