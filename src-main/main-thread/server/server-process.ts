/**
 * The server shell's composition root (`serve.ts` starts it): the same data
 * worker and router the desktop shell composes (`../desk-connection.ts`,
 * `../desk-worker-spawn.ts`), served over HTTP and a WebSocket instead of a
 * window and IPC, with sign-in in front. Plain Node: no Electron anywhere.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { scaledClock, systemClock } from '../../core/clock.ts';
import { deskWorkerConfig } from '../../core/data/desk-worker-config.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import { appPaths } from '../../core/shell/app-paths.ts';
import { diagnosticsBundle } from '../../core/shell/diagnostics.ts';
import type { ExternalLinkPolicy } from '../../core/shell/external-links.ts';
import { withCallLog } from '../../ipc/call-log.ts';
import type { WorkerPort } from '../data-client.ts';
import { connectDesk, type DeskConnection } from '../desk-connection.ts';
import { stopDesk } from '../desk-stop.ts';
import { createKeychainSecretStore, KEYCHAIN_SERVICE } from '../keychain.ts';
import { openAccess, type Access } from './access.ts';
import { createHttpDesk, type Readiness } from './http-server.ts';
import { chooseKeyStore } from './key-store.ts';
import { privateDir } from './private-file.ts';
import { loadRendererFiles } from './renderer-files.ts';
import { createRequestGuard } from './request-guard.ts';
import { transportOf, type ServeOptions } from './serve-options.ts';
import { logsWhere, serverPlatform } from './server-platform.ts';
import { serverWorkerSpawner } from './server-worker.ts';
import { CLOSE_GOING_AWAY, CLOSE_SIGNED_OUT, createSocketBridge, type SocketBridge } from './socket-bridge.ts';

/**
 * Settings a test forces on the desk (time scaled with its simulator, live
 * mode pointed at it, inventories read from it), as the desktop shell's boot
 * test passes them to its composition root; read from this variable, as
 * JSON, since the test starts the real server as a child process.
 */
export const TEST_CONFIG_ENV = 'MARKETPLACE_DESK_TEST_CONFIG';
const testConfig = deskWorkerConfig.pick({ clock: true, sandbox: true, initialSettings: true, inventoryUrl: true }).partial().strict();

export interface ServerDeps {
  readonly options: ServeOptions;
  readonly log: AppLog;
  /** Folder of the built main bundle (out/main): the worker beside it, the renderer and package.json above. */
  readonly mainDir: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Starts the data worker (default: serverWorkerSpawner's); serve.ts passes one that started it ahead. */
  readonly spawn?: () => WorkerPort;
}

export interface RunningServer {
  readonly url: string;
  readonly connection: DeskConnection;
  readonly access: Access;
  /** Stops as SIGTERM does: no new requests, pages told, applies journaled, the store closed. */
  stop(): Promise<void>;
}

export async function startServer(deps: ServerDeps): Promise<RunningServer> {
  const { options, log, mainDir } = deps;
  const env = deps.env ?? process.env;
  const forced = testConfig.parse(JSON.parse(env[TEST_CONFIG_ENV] ?? '{}'));
  const clock = forced.clock ? scaledClock(forced.clock.scale, forced.clock.origin) : systemClock;
  const transport = transportOf(options);
  const version = readVersion(mainDir);
  const tls = options.tls ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) } : null;
  const profileDir = privateDir(options.profileDir);
  const files = loadRendererFiles(appPaths({ packaged: false, mainDir, appPath: join(mainDir, '..', '..'), resourcesPath: '' }).rendererDir);
  log.info('starting', { version, node: process.versions.node, platform: process.platform, arch: process.arch, profileDir, transport });

  const keys = await chooseKeyStore({
    keyFile: join(profileDir, 'api-key'),
    credentialsDir: env.CREDENTIALS_DIRECTORY,
    // One keychain entry per profile folder: two desks on one machine keep their own keys.
    keychain: createKeychainSecretStore({ service: `${KEYCHAIN_SERVICE} (${profileDir})` }),
  });
  log.info('the API key is kept in one place', { where: keys.where });

  const where = logsWhere(env);
  const access = openAccess({ profileDir, clock, transport, log, logsWhere: where, keyWhere: keys.where });
  let serviceUrl = '';
  const links = (): ExternalLinkPolicy => ({ serviceOrigins: serviceUrl.startsWith('https:') ? [new URL(serviceUrl).origin] : [] });
  let bridge: SocketBridge | null = null;
  const connection = await connectDesk({
    spawn: deps.spawn ?? serverWorkerSpawner({ mainDir, profileDir }),
    secrets: keys.secrets,
    config: {
      dataDir: join(profileDir, 'profiles'),
      version,
      clock: forced.clock ?? null,
      sandbox: forced.sandbox ?? {},
      ...(forced.initialSettings ? { initialSettings: forced.initialSettings } : {}),
      ...(forced.inventoryUrl ? { inventoryUrl: forced.inventoryUrl } : {}),
    },
    platform: serverPlatform({ links, openInPage: (url) => bridge?.openLink(url), logsWhere: where, access: access.host }),
    log,
  });
  const { desk } = connection;
  // The key, once known, is scrubbed from every line; a new one is learned when it is set.
  log.addSecret(desk.knownKey());
  desk.on('key', (key) => log.addSecret(key));
  if (connection.problem() === null) serviceUrl = desk.view().settings.serviceUrl;
  desk.on('view', ({ view }) => (serviceUrl = view.settings.serviceUrl));

  bridge = createSocketBridge({ router: withCallLog(connection.router, log), log, signOut: (id) => access.sessions.end(id) });
  const sockets = bridge;
  access.sessions.onEnd((id) => sockets.drop({ kind: 'session', id }, CLOSE_SIGNED_OUT, 'signed out'));
  access.tokens.onRevoke((id) => sockets.drop({ kind: 'token', id }, CLOSE_SIGNED_OUT, 'token revoked'));

  let stopping = false;
  const readiness = (): Readiness => {
    if (stopping) return 'stopping';
    if (connection.problem() !== null) return 'recovering';
    const state = desk.storeState();
    return state === 'closed' ? 'stopping' : state;
  };
  const http = createHttpDesk({
    access, files, bridge, transport, clock, log, readiness,
    guard: createRequestGuard({ host: options.host, port: options.port, tls: tls !== null, trustedProxies: options.trustedProxies, allowedHosts: options.allowedHosts }),
    router: connection.router,
    port: options.port,
    diagnostics: async () => diagnosticsBundle({
      createdAt: new Date(clock.now()).toISOString(),
      versions: { app: version, electron: null, chrome: null, node: process.versions.node, platform: `${process.platform} ${process.arch}` },
      ...(await desk.diagnostics()),
      updates: null,
      logs: log.recent(256 * 1024),
    }, [desk.knownKey()]),
  });
  const server: Server = tls ? createHttpsServer(tls, http.request) : createHttpServer(http.request);
  server.on('upgrade', http.upgrade);
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${urlHost(options.host)}:${port}`;
  if (transport === 'insecure') log.warn('listening beyond this machine without encryption (--insecure-remote): every screen says so');
  if (access.setupToken) {
    log.info('no password is set yet: open this link within 15 minutes to set it (it works once)', { setupLink: `${url}/setup#${access.setupToken}` });
  }
  // The last line of a start: the desk answers from here on.
  log.info('listening', { url, transport });

  return {
    url,
    connection,
    access,
    async stop() {
      if (stopping) return;
      stopping = true;
      log.info('stopping', { applies: connection.problem() === null ? desk.view().appliesRunning : 0 });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      sockets.close(CLOSE_GOING_AWAY, 'the desk is stopping');
      server.closeIdleConnections();
      await stopDesk(connection, log);
      server.closeAllConnections();
      await closed;
      log.info('closed');
    },
  };
}

/** The address as a URL names it: brackets around IPv6, loopback for a wildcard. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '' ) return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function readVersion(mainDir: string): string {
  try {
    return z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(mainDir, '..', '..', 'package.json'), 'utf8'))).version;
  } catch {
    return '0.0.0';
  }
}
