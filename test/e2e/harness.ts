import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { test, type Page } from '@playwright/test';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Router } from '../../src-main/ipc/router.ts';

/**
 * Runs the built renderer in Debian's Chromium with `window.api` bound to the
 * real router, so the end-to-end tests drive the same bridge the preload
 * exposes in Electron, without the Electron binary.
 *
 * The bridge is one WebSocket on the page's own origin (its CSP allows
 * `connect-src 'self'`), as Electron's IPC is one pipe: an invoke is a
 * message, and its reply comes back on the same socket together with main's
 * events, in the order main produced them. (Driving it through the DevTools
 * protocol cost tens of milliseconds a message. An HTTP request a call, the
 * bridge before this one, reached the server 15-28 ms after the call while
 * the window was building itself; a message on the socket takes 1-2 ms. The
 * performance figures would have counted the difference as the desk's.)
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The largest reply and event that crossed the bridge, in bytes of JSON (the performance spec reports it). */
export const bridgeTraffic = { largestBytes: 0, largestWhat: '' };

function weigh(what: string, json: string): string {
  if (json.length > bridgeTraffic.largestBytes) {
    bridgeTraffic.largestBytes = json.length;
    bridgeTraffic.largestWhat = what;
  }
  return json;
}

/**
 * How a binding may stray from Electron's in-order delivery, to prove the
 * screens do not depend on it: the replies of the channels named here reach
 * the page this much later than main sent them, after events sent meanwhile.
 */
export interface BridgeOptions {
  readonly replyDelayMs?: Readonly<Record<string, number>>;
}

/** One bound page: its router, and the socket its messages go down. */
interface Binding {
  readonly router: Router;
  readonly options: BridgeOptions;
  socket: WebSocket | null;
  /** Messages produced before the page opened its socket. */
  readonly waiting: string[];
}

export interface StaticServer {
  readonly url: string;
  /** Serves the bridge of one page at /__desk/<token>; returns the token and the way to stop. */
  attach(router: Router, options?: BridgeOptions): { token: string; detach(): void };
  close(): Promise<void>;
}

/**
 * Serves the built renderer over http on 127.0.0.1 (Chromium blocks module
 * scripts from file://). Only files under `root` are served.
 */
export async function serveRenderer(root = resolve('out/renderer')): Promise<StaticServer> {
  const base = resolve(root);
  const bindings = new Map<string, Binding>();
  const sockets = new WebSocketServer({ noServer: true });

  const send = (binding: Binding, message: object) => {
    const line = JSON.stringify(message);
    if (binding.socket) binding.socket.send(line);
    else binding.waiting.push(line);
  };

  function connect(socket: WebSocket, binding: Binding): void {
    binding.socket = socket;
    for (const line of binding.waiting.splice(0)) socket.send(line);
    socket.on('close', () => {
      if (binding.socket === socket) binding.socket = null;
    });
    // Each call runs at once, as ipcMain runs invokes; each reply goes back when its own answer is ready.
    socket.on('message', (data) => {
      const { id, channel, input } = JSON.parse(String(data)) as { id: number; channel: string; input: unknown };
      weigh(`input of ${channel}`, JSON.stringify(input ?? {}));
      void binding.router.invoke(channel, input).then((result) => {
        weigh(`reply of ${channel}`, JSON.stringify(result));
        const delay = binding.options.replyDelayMs?.[channel];
        if (delay !== undefined) setTimeout(() => send(binding, { reply: id, result }), delay);
        else send(binding, { reply: id, result });
      });
    });
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const file = normalize(join(base, path === '/' ? 'index.html' : path));
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403).end();
        return;
      }
      try {
        const info = await stat(file);
        if (!info.isFile()) throw new Error('not a file');
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        createReadStream(file).pipe(res);
      } catch {
        res.writeHead(404).end('not found');
      }
    })();
  });
  server.on('upgrade', (req, socket, head) => {
    const token = /^\/__desk\/([\w-]+)$/.exec(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)?.[1];
    const binding = token === undefined ? undefined : bindings.get(token);
    if (!binding) return void socket.destroy();
    sockets.handleUpgrade(req, socket, head, (client) => connect(client, binding));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    attach(router, options = {}) {
      const token = randomUUID();
      const binding: Binding = { router, options, socket: null, waiting: [] };
      bindings.set(token, binding);
      const unsubscribe = router.subscribe((event, payload) => send(binding, { event, payload: JSON.parse(weigh(`event ${event}`, JSON.stringify(payload))) }));
      return {
        token,
        detach() {
          unsubscribe();
          binding.socket?.close();
          bindings.delete(token);
        },
      };
    },
    close: () =>
      new Promise<void>((ok) => {
        // A desk closed after the server still publishes (its heartbeat's last state): it goes nowhere.
        for (const b of bindings.values()) {
          b.socket?.terminate();
          b.socket = null;
        }
        sockets.close();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * Gives the page a `window.api` (DeskApi) whose invoke runs `router.invoke`
 * in the test process and whose listeners receive the router's events, in
 * order. Call before `page.goto`. Returns a function that stops forwarding.
 */
export async function bindDesk(page: Page, router: Router, server: StaticServer, options?: BridgeOptions): Promise<() => void> {
  const { token, detach } = server.attach(router, options);
  await page.addInitScript(
    ({ channels, events, path }) => {
      type Listener = (payload: unknown) => void;
      interface Socket {
        readonly readyState: number;
        onopen: (() => void) | null;
        onmessage: ((m: { data: string }) => void) | null;
        send(data: string): void;
      }
      const g = globalThis as unknown as Record<string, unknown> & {
        location: { host: string };
        WebSocket: new (url: string) => Socket;
      };
      const listeners = new Map<string, Set<Listener>>();
      const waiting = new Map<number, (result: unknown) => void>();
      let next = 1;
      const socket = new g.WebSocket(`ws://${g.location.host}${path}`);
      // Calls made before the socket is open go as soon as it is (Electron's pipe is open from the start).
      const unsent: string[] = [];
      socket.onopen = () => {
        for (const line of unsent.splice(0)) socket.send(line);
      };
      socket.onmessage = (m) => {
        const message = JSON.parse(m.data) as { reply?: number; result?: unknown; event?: string; payload?: unknown };
        if (message.reply !== undefined) {
          waiting.get(message.reply)?.(message.result);
          waiting.delete(message.reply);
        } else if (message.event !== undefined) {
          for (const listener of [...(listeners.get(message.event) ?? [])]) listener(message.payload);
        }
      };
      // The same refusals as the preload: only the contract's names pass.
      g.api = Object.freeze({
        invoke(channel: string, input: unknown) {
          if (!channels.includes(channel)) return Promise.reject(new Error(`unknown channel ${channel}`));
          const id = next++;
          return new Promise((resolveReply) => {
            waiting.set(id, resolveReply);
            const line = JSON.stringify({ id, channel, input: input ?? {} });
            if (socket.readyState === 1) socket.send(line);
            else unsent.push(line);
          });
        },
        on(event: string, listener: Listener) {
          if (!events.includes(event)) throw new Error(`unknown event ${event}`);
          let set = listeners.get(event);
          if (!set) listeners.set(event, (set = new Set()));
          set.add(listener);
          return () => void set.delete(listener);
        },
      });
    },
    // Plain strings in the page: it checks names it is given at run time.
    { channels: [...router.channels] as string[], events: [...router.events] as string[], path: `/__desk/${token}` },
  );
  return detach;
}

/** Forces the light or dark theme the way the OS would (prefers-color-scheme). */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
}

/**
 * Opens the desk in a page: binds `window.api` to the router, loads the built
 * renderer at `view`, and waits for the shell. Console errors are collected
 * (a missing favicon is the only one excused: the static server has none).
 */
export async function openDesk(
  page: Page,
  router: Router,
  server: StaticServer,
  view = 'overview',
  bridge?: BridgeOptions,
): Promise<{ errors: string[]; unbind: () => void }> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon/.test(m.text())) errors.push(m.text());
  });
  // A desk the real server serves: the page signs in there, and gets window.api from the server's own socket client.
  const { serverDeskOf, signInPage } = await import('./server/server-desk.ts');
  const served = serverDeskOf(router);
  if (served) {
    await signInPage(page, served, view);
    return { errors, unbind: () => undefined };
  }
  const unbind = await bindDesk(page, router, server, bridge);
  await page.goto(`${server.url}#/${view}`);
  await page.locator('nav[aria-label=Screens]').waitFor();
  return { errors, unbind };
}

/**
 * For spec files: the built renderer served for the file's tests and closed
 * after them; call the returned function for it inside a test.
 */
export function rendererForSpecs(): () => StaticServer {
  let server: StaticServer | null = null;
  test.beforeAll(async () => {
    server = await serveRenderer();
  });
  test.afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the renderer is served from beforeAll: ask for it inside a test');
    return server;
  };
}

/** Goes to screen `n` of the sidebar, as its shortcut (Alt+1 … Alt+9) does. */
export const goToScreen = (page: Page, n: number) => page.keyboard.press(`Alt+${n}`);

/**
 * A spec's pictures: `shot(page, name)` writes test-results/<folder>/<name>.png
 * (the whole page unless told). A spec the server project runs too writes to
 * <folder>-server/: the two projects may run it at the same time.
 */
export function screenshotsIn(folder: string, options: { fullPage?: boolean } = {}): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    const project = test.info().project.name;
    const dir = join('test-results', project === 'desk' ? folder : `${folder}-${project}`);
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${name}.png`), fullPage: options.fullPage ?? true });
  };
}

/**
 * axe over a page as every spec checks it: WCAG 2.0/2.1 A and AA and best
 * practice. Only the violations are gathered in full (`resultTypes`): no spec
 * reads the passes, and collecting them was a fifth of each scan's time.
 */
export const axe = (page: Page): AxeBuilder =>
  new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
