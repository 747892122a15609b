import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { startLoopbackServer } from '../../support/loopback-server.ts';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { ClientOptions, MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';

export { closedPort } from '../../support/loopback-server.ts';

/** A request as a test server received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export type TestHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface TestServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** A real node:http server on 127.0.0.1 for the edge cases a well-behaved simulator never produces. */
export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = await startLoopbackServer((req, res, body) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    handler(req, res, body);
  });
  return { ...server, requests };
}

/** Replies with JSON and optional headers. */
export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/**
 * A TCP listener that accepts and never answers: an https:// client hangs in
 * its TLS handshake there, which is a connect that never completes.
 */
export async function startSilentTcpServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** What a promise rejected with; a resolution is turned into a failure. */
export function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
}

/** The ApiError a promise rejected with; anything else is rethrown. */
export async function apiRejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  if (!(error instanceof ApiError)) throw error;
  return error;
}

export interface TestHarness {
  /** Closes `client` after the test. */
  track(client: MarketplaceClient): MarketplaceClient;
  /** Runs `cleanup` after the test (in reverse order of registration). */
  defer(cleanup: () => Promise<void>): void;
  /** A test server with `handler` and a client of it using `key`. */
  serve(handler: TestHandler, options?: Partial<ClientOptions>): Promise<{ server: TestServer; client: MarketplaceClient }>;
}

/** Servers and clients of one test file, closed after each test. Call at the top of the file. */
export function testHarness(key: string): TestHarness {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const harness: TestHarness = {
    track(client) {
      cleanups.push(() => client.close());
      return client;
    },
    defer(cleanup) {
      cleanups.push(cleanup);
    },
    async serve(handler, options = {}) {
      const server = await startTestServer(handler);
      cleanups.push(() => server.close());
      const client = harness.track(
        createMarketplaceClient({ baseUrl: server.url, apiKey: async () => key, ...options }),
      );
      return { server, client };
    },
  };
  return harness;
}
