import { describe, expect, it } from 'vitest';
import { createMarketplaceClient } from '../../../src-main/core/api/client.ts';
import type { MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { apiRejection, closedPort, json, rejection, startSilentTcpServer, testHarness } from './test-server.ts';
import type { TestHandler } from './test-server.ts';

/**
 * Transport failures: whether the request can have reached the service
 * decides between 'network' (surely not sent, or a read) and
 * 'unknown_outcome' (a write whose response was lost).
 */

const KEY = 'test-key-0002';
const { serve, track, defer } = testHarness(KEY);

/** A client whose https connect hangs in the TLS handshake until `connectTimeoutMs`. */
async function neverConnecting(connectTimeoutMs: number): Promise<MarketplaceClient> {
  const silent = await startSilentTcpServer();
  defer(() => silent.close());
  return track(
    createMarketplaceClient({ baseUrl: `https://127.0.0.1:${silent.port}`, apiKey: async () => KEY, connectTimeoutMs }),
  );
}

const createListing = { items: [{ asset_id: '11', price: 100, promoted: 0 as const, game: '440' }] };

/** Reads the whole request, then destroys the socket without answering. */
const dropAfterRead: TestHandler = (req) => req.socket.destroy();

describe('not sent: always network', () => {
  it('connection refused is network, even for a write', async () => {
    const port = await closedPort();
    const client = track(createMarketplaceClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: async () => KEY }));
    const error = await apiRejection(client.call('create_listing', createListing));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('not sent');
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a connect that never completes times out as network, even for a write', async () => {
    const client = await neverConnecting(150);
    const error = await apiRejection(client.call('create_listing', createListing));
    expect(error.kind).toBe('network');
    expect((error.cause as { code?: string }).code).toBe('UND_ERR_CONNECT_TIMEOUT');
  });
});

describe('lost responses', () => {
  it('a write whose socket is destroyed after the server read it is unknown_outcome', async () => {
    const { server, client } = await serve(dropAfterRead);
    const error = await apiRejection(client.call('create_listing', createListing));
    expect(error.kind).toBe('unknown_outcome');
    expect(error.endpoint).toBe('create_listing');
    expect(error.transient).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('a read in the same situation is network (safe to retry)', async () => {
    const { client } = await serve(dropAfterRead);
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('response was lost');
  });

  it('a body cut short after a 200 is unknown for a write', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"success": tr');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await apiRejection(client.call('create_listing', createListing));
    expect(error.kind).toBe('unknown_outcome');
  });

  it('a slow response past the total timeout: unknown for a write, network for a read', async () => {
    const { client } = await serve(
      (_req, res) => {
        setTimeout(() => json(res, 200, { success: true }), 1_500);
      },
      { timeoutMs: 200 },
    );
    const started = performance.now();
    const write = await apiRejection(client.call('delete_listing', { items: [{ asset_id: '1' }] }));
    expect(performance.now() - started).toBeLessThan(1_200);
    expect(write.kind).toBe('unknown_outcome');
    const read = await apiRejection(client.call('load_pending', {}));
    expect(read.kind).toBe('network');
    expect(read.message).toContain('timed out after 200 ms');
  });

  it('a response whose body stalls mid-way hits the total timeout too', async () => {
    const { client } = await serve(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"balance"');
      },
      { timeoutMs: 200 },
    );
    const error = await apiRejection(client.call('get_balance', {}));
    expect(error.kind).toBe('network');
  });
});

describe('caller aborts', () => {
  it('an already aborted signal throws its reason, nothing sent', async () => {
    const { server, client } = await serve((_req, res) => json(res, 200, { success: true }));
    const reason = new Error('stop');
    const error = await rejection(
      client.call('delete_listing', { items: [{ asset_id: '1' }] }, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('an abort while still connecting throws the reason at once, not after the connect timeout', async () => {
    // close() waits for the abandoned connect to end; keep its timeout short.
    const client = await neverConnecting(1_500);
    const controller = new AbortController();
    const pending = rejection(client.call('create_listing', createListing, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    const started = performance.now();
    const error = await pending;
    expect(performance.now() - started).toBeLessThan(700);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('user cancelled');
  });

  it('an abort after a write was sent is unknown_outcome; after a read was sent, the reason', async () => {
    const { server, client } = await serve(() => {
      // Never answers: the request is in flight until aborted.
    });
    const writeAbort = new AbortController();
    const write = apiRejection(client.call('create_listing', createListing, { signal: writeAbort.signal }));
    await until(() => server.requests.length === 1);
    writeAbort.abort(new Error('cancel write'));
    expect((await write).kind).toBe('unknown_outcome');

    const readAbort = new AbortController();
    const read = rejection(client.call('get_balance', {}, { signal: readAbort.signal }));
    await until(() => server.requests.length === 2);
    readAbort.abort(new Error('cancel read'));
    expect(((await read) as Error).message).toBe('cancel read');
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition not reached');
}
