import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Page } from '@playwright/test';
import type { Router } from '../../src-main/ipc/router.ts';

/**
 * Runs the built renderer in Debian's Chromium with `window.api` bound to the
 * real router, so the end-to-end tests drive the same bridge the preload
 * exposes in Electron, without the Electron binary.
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

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the built renderer over http on 127.0.0.1 (Chromium blocks module
 * scripts from file://). Only files under `root` are served.
 */
export async function serveRenderer(root = resolve('out/renderer')): Promise<StaticServer> {
  const base = resolve(root);
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
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * Gives the page a `window.api` (DeskApi) whose invoke runs `router.invoke`
 * in the test process and whose listeners receive the router's events.
 * Call before `page.goto`. Returns a function that stops forwarding events.
 */
export async function bindDesk(page: Page, router: Router): Promise<() => void> {
  // Values cross as JSON text: Playwright's own serializer takes seconds on a
  // 50,000-row reply, which Electron's structured clone does not, and the
  // figures of the performance spec must be the renderer's, not the harness's.
  // Events a handler emits reach the page before its reply, as they do over Electron's one IPC pipe.
  let queue: Promise<unknown> = Promise.resolve();
  await page.exposeBinding('__deskInvoke', async (_source, channel: string, input: string) => {
    const result = await router.invoke(channel, JSON.parse(input) as unknown);
    await queue;
    return JSON.stringify(result);
  });
  await page.addInitScript(
    ({ channels, events }) => {
      type Listener = (payload: unknown) => void;
      const g = globalThis as unknown as Record<string, unknown>;
      const listeners = new Map<string, Set<Listener>>();
      const invoke = g.__deskInvoke as (channel: string, input: string) => Promise<string>;
      // The same refusals as the preload: only the contract's names pass.
      g.api = Object.freeze({
        async invoke(channel: string, input: unknown) {
          if (!channels.includes(channel)) throw new Error(`unknown channel ${channel}`);
          return JSON.parse(await invoke(channel, JSON.stringify(input ?? {}))) as unknown;
        },
        on(event: string, listener: Listener) {
          if (!events.includes(event)) throw new Error(`unknown event ${event}`);
          let set = listeners.get(event);
          if (!set) listeners.set(event, (set = new Set()));
          set.add(listener);
          return () => void set.delete(listener);
        },
      });
      g.__deskEmit = (event: string, json: string) => {
        for (const listener of [...(listeners.get(event) ?? [])]) listener(JSON.parse(json) as unknown);
      };
    },
    // Plain strings in the page: it checks names it is given at run time.
    { channels: [...router.channels] as string[], events: [...router.events] as string[] },
  );
  // Events are delivered in order, one evaluate after another.
  return router.subscribe((event, payload) => {
    queue = queue
      .then(() =>
        page.evaluate(
          ([e, p]) => {
            const emit = (globalThis as unknown as { __deskEmit?: (e: string, json: string) => void }).__deskEmit;
            emit?.(e, p);
          },
          [event, JSON.stringify(payload)] as const,
        ),
      )
      // A page that is navigating or closed misses the event; the stores reload on start.
      .catch(() => undefined);
  });
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
): Promise<{ errors: string[]; unbind: () => void }> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/favicon/.test(m.text())) errors.push(m.text());
  });
  const unbind = await bindDesk(page, router);
  await page.goto(`${server.url}#/${view}`);
  await page.locator('nav[aria-label=Screens]').waitFor();
  return { errors, unbind };
}
