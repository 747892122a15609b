import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Page } from '@playwright/test';
import type { Router } from '../../src-main/ipc/router.ts';

/**
 * Runs the built renderer in Debian's Chromium with `window.api` bound to the
 * real router, so the end-to-end tests drive the same bridge the preload
 * exposes in Electron, without the Electron binary.
 *
 * The bridge runs over loopback HTTP on the page's own origin (its CSP
 * allows `connect-src 'self'`): an invoke is a POST, and its reply comes back
 * on one Server-Sent Events stream together with main's events, in the order
 * main produced them, as Electron's one IPC pipe carries them. (Driving it
 * through the DevTools protocol cost tens of milliseconds a message, which
 * the performance figures would have counted as the desk's.)
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

/** One bound page: its router, and the event stream its messages go down. */
interface Binding {
  readonly router: Router;
  readonly options: BridgeOptions;
  stream: ServerResponse | null;
  /** Messages produced before the page opened its stream. */
  readonly waiting: string[];
}

export interface StaticServer {
  readonly url: string;
  /** Serves the bridge of one page at /__desk/<token>/; returns the token and the way to stop. */
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

  const send = (binding: Binding, message: object) => {
    const line = `data: ${JSON.stringify(message)}\n\n`;
    if (binding.stream) binding.stream.write(line);
    else binding.waiting.push(line);
  };

  async function bridge(req: IncomingMessage, res: ServerResponse, binding: Binding, verb: string): Promise<void> {
    if (verb === 'events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      binding.stream = res;
      for (const line of binding.waiting.splice(0)) res.write(line);
      req.on('close', () => {
        if (binding.stream === res) binding.stream = null;
      });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const calls = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; channel: string; input: unknown }[];
    res.writeHead(204).end();
    // Each call runs at once, as ipcMain runs invokes; each reply goes back when its own answer is ready.
    await Promise.all(calls.map(async ({ id, channel, input }) => {
      weigh(`input of ${channel}`, JSON.stringify(input ?? {}));
      const result = await binding.router.invoke(channel, input);
      weigh(`reply of ${channel}`, JSON.stringify(result));
      const delay = binding.options.replyDelayMs?.[channel];
      if (delay !== undefined) setTimeout(() => send(binding, { reply: id, result }), delay);
      else send(binding, { reply: id, result });
    }));
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const desk = /^\/__desk\/([\w-]+)\/(invoke|events)$/.exec(path);
      if (desk) {
        const binding = bindings.get(desk[1] as string);
        if (!binding) return void res.writeHead(404).end();
        return bridge(req, res, binding, desk[2] as string);
      }
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
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    attach(router, options = {}) {
      const token = randomUUID();
      const binding: Binding = { router, options, stream: null, waiting: [] };
      bindings.set(token, binding);
      const unsubscribe = router.subscribe((event, payload) => send(binding, { event, payload: JSON.parse(weigh(`event ${event}`, JSON.stringify(payload))) }));
      return {
        token,
        detach() {
          unsubscribe();
          binding.stream?.end();
          bindings.delete(token);
        },
      };
    },
    close: () =>
      new Promise<void>((ok) => {
        // A desk closed after the server still publishes (its heartbeat's last state): it goes nowhere.
        for (const b of bindings.values()) {
          b.stream?.end();
          b.stream = null;
        }
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
    ({ channels, events, base }) => {
      type Listener = (payload: unknown) => void;
      interface Source { onmessage: ((m: { data: string }) => void) | null }
      const g = globalThis as unknown as Record<string, unknown> & {
        fetch(url: string, init: object): Promise<unknown>;
        EventSource: new (url: string) => Source;
      };
      const listeners = new Map<string, Set<Listener>>();
      const waiting = new Map<number, (result: unknown) => void>();
      let next = 1;
      const source = new g.EventSource(`${base}/events`);
      source.onmessage = (m) => {
        const message = JSON.parse(m.data) as { reply?: number; result?: unknown; event?: string; payload?: unknown };
        if (message.reply !== undefined) {
          waiting.get(message.reply)?.(message.result);
          waiting.delete(message.reply);
        } else if (message.event !== undefined) {
          for (const listener of [...(listeners.get(message.event) ?? [])]) listener(message.payload);
        }
      };
      // A call goes at once, as Electron's IPC sends it; while four requests are on their way,
      // later calls wait together and go in one request when one of them is through. HTTP's
      // six connections per host would otherwise queue a start-up's reads one behind another.
      type Call = { id: number; channel: string; input: unknown; reject: (error: unknown) => void };
      let outbox: Call[] = [];
      let sending = 0;
      const post = (batch: Call[]) => {
        sending += 1;
        g.fetch(`${base}/invoke`, { method: 'POST', body: JSON.stringify(batch.map(({ id, channel, input }) => ({ id, channel, input }))) })
          .catch((error: unknown) => {
            for (const call of batch) {
              waiting.delete(call.id);
              call.reject(error);
            }
          })
          .finally(() => {
            sending -= 1;
            if (outbox.length > 0 && sending < 4) {
              const next = outbox;
              outbox = [];
              post(next);
            }
          });
      };
      // The same refusals as the preload: only the contract's names pass.
      g.api = Object.freeze({
        invoke(channel: string, input: unknown) {
          if (!channels.includes(channel)) return Promise.reject(new Error(`unknown channel ${channel}`));
          const id = next++;
          return new Promise((resolveReply, reject) => {
            waiting.set(id, resolveReply);
            const call = { id, channel, input: input ?? {}, reject };
            if (sending < 4) post([call]);
            else outbox.push(call);
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
    { channels: [...router.channels] as string[], events: [...router.events] as string[], base: `/__desk/${token}` },
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
  const unbind = await bindDesk(page, router, server, bridge);
  await page.goto(`${server.url}#/${view}`);
  await page.locator('nav[aria-label=Screens]').waitFor();
  return { errors, unbind };
}
