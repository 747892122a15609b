import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../../src-shared/channels.ts';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { openStore } from '../../../src-main/core/store/db.ts';
import { createRepos } from '../../../src-main/core/store/index.ts';
import type { Router } from '../../../src-main/ipc/router.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { adopt, askOf, readProfile, type Seeder, type TestDesk, type TestDeskOptions } from '../desk-fixture.ts';
import { startServe, type ServeProcess } from './serve-process.ts';
import { connectRouter, setUp, signIn, TEST_PASSWORD, type Credentials, type SocketRouter } from './server-client.ts';

/**
 * The end-to-end tests' desk, served by the real server process: the same
 * TestDesk the other specs use (so a spec runs against either shell), with
 * the simulator in the test's process as the live service, the profile in a
 * temp folder the test seeds while the server is stopped, and the bridge
 * reached over the server's WebSocket with a session, as a page reaches it.
 * The key sits in the real Secret Service, under the server's entry for the
 * profile folder. A restart (`reopen`) stops the process with SIGTERM and
 * starts it again.
 */
export interface ServerDesk extends TestDesk {
  /** The server process now running. */
  server(): ServeProcess;
  /** Every line the server processes wrote, all starts. */
  logLines(): string[];
  /** Every message the test's own socket received, all starts. */
  frames(): string[];
  /** Signs the test's socket in (once the page set the password, with `pageSetsPassword`). */
  connect(): Promise<void>;
  readonly profileDir: string;
}

/** The server behind a router a ServerDesk hands out, for openDesk to sign the page in. */
const servers = new WeakMap<Router, ServerDesk>();
export const serverDeskOf = (router: Router): ServerDesk | undefined => servers.get(router);

export interface ServerDeskOptions extends TestDeskOptions {
  /** Leave the setup link to a page (the journey): the test's own socket connects once `connect` is called. */
  readonly pageSetsPassword?: boolean;
}

export async function startServerDesk(options: ServerDeskOptions = {}): Promise<ServerDesk> {
  const profileDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'desk-serve-'));
  const dataDir = join(profileDir, 'profiles');
  mkdirSync(dataDir, { recursive: true });
  const profilePath = join(dataDir, 'default.sqlite');
  const scale = options.timeScale ?? 1;
  const origin = Date.now();
  const clock = scaledClock(scale, origin);
  const sandbox = await startSandbox({ clock, seed: 11, inventorySize: options.inventorySize ?? (options.ledgerSize ?? 0) + 2_000, tradeSchedule: options.tradeSchedule ?? true });

  const seed = (seeder: Seeder) => {
    const store = openStore(profilePath, { clock });
    try {
      seeder({ store, repos: createRepos(store), sandbox, clock });
    } finally {
      store.close();
    }
  };
  const count = options.ledgerSize ?? 0;
  if (count > 0) seed(({ repos }) => adopt(repos, sandbox, sandbox.admin.seedListings(count)));
  if (options.seed) seed(options.seed);

  const lines: string[] = [];
  const frames: string[] = [];
  const transcript: string[] = [];
  const testConfig = {
    ...(scale === 1 ? {} : { clock: { scale, origin } }),
    sandbox: { seed: 12, tradeMoney: false },
    ...(options.savedSettings ? {} : { initialSettings: { mode: 'live', serviceUrl: sandbox.url } }),
    inventoryUrl: sandbox.url,
  };

  let server: ServeProcess;
  let socket: SocketRouter | null = null;
  let passwordSet = false;
  async function connect(): Promise<void> {
    // The setup link is the fixture's to use, unless a page used it.
    const link = passwordSet || options.pageSetsPassword ? null : server.setupLink();
    const credentials: Credentials = link ? await setUp(server.url, link) : await signIn(server.url);
    passwordSet = true;
    socket = await connectRouter(server.url, credentials);
    for (const s of subscriptions.values()) s.off = listen(s.listener);
  }
  async function start(): Promise<void> {
    server = await startServe({ profileDir, testConfig });
    if (passwordSet || !options.pageSetsPassword) await connect();
  }
  async function stop(): Promise<void> {
    if (socket) {
      await socket.close();
      frames.push(...socket.received);
      socket = null;
    }
    await server.stop('SIGTERM');
    lines.push(...server.lines());
  }
  const signedIn = (): SocketRouter => {
    if (!socket) throw new Error('the test\'s socket is not signed in yet: call connect() once the password is set');
    return socket;
  };

  const subscriptions = new Map<object, { listener: Parameters<Router['subscribe']>[0]; off: () => void }>();
  const listen = (listener: Parameters<Router['subscribe']>[0]) =>
    signedIn().subscribe((event, payload) => {
      transcript.push(JSON.stringify({ event, payload }));
      listener(event, payload);
    });
  const router: Router = {
    channels: CHANNEL_NAMES,
    events: EVENT_NAMES,
    async invoke(channel, input) {
      const result = await signedIn().invoke(channel, input);
      transcript.push(JSON.stringify({ channel, result }));
      return result;
    },
    subscribe(listener) {
      const token = {};
      subscriptions.set(token, { listener, off: socket ? listen(listener) : () => undefined });
      return () => {
        subscriptions.get(token)?.off();
        subscriptions.delete(token);
      };
    },
  };

  try {
    await start();
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const desk: ServerDesk = {
    router,
    sandbox,
    profileDir,
    dataDir,
    profilePath,
    openedLinks: [],
    server: () => server,
    logLines: () => [...lines, ...server.lines()],
    frames: () => [...frames, ...(socket?.received ?? [])],
    connect,
    connection() {
      throw new Error('the server runs the desk in a process of its own: there is no connection in the test\'s');
    },
    transcript: () => [...transcript],
    ask: askOf(router),
    read: (query) => readProfile(profilePath, query),
    async reopen(seeder) {
      await stop();
      if (seeder) seed(seeder);
      await start();
    },
    async close() {
      await stop();
      await sandbox.close();
      if (!options.dataDir) rmSync(profileDir, { recursive: true, force: true });
    },
  };
  servers.set(router, desk);
  return desk;
}

/** Opens the desk at `view` in a page as the trader does: sent to sign in, and back to the screen after. */
export async function signInPage(page: Page, desk: ServerDesk, view: string, password = TEST_PASSWORD): Promise<void> {
  const { url } = desk.server();
  await page.goto(`${url}/#/${view}`);
  await page.waitForURL(`${url}/login#/${view}`);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${url}/#/${view}`);
  await page.locator('nav[aria-label=Screens]').waitFor();
}
