import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import type { IpcResult } from '../../../src-shared/contract.ts';
import { DomainError, refused } from '../../core/errors.ts';
import type { AppLog } from '../../core/shell/app-log.ts';
import { boundedView, toErrorView } from '../../ipc/error-view.ts';
import type { Router } from '../../ipc/router.ts';

/**
 * The bridge over WebSockets: each signed-in page (or script with a bearer
 * token) holds one socket, as the desktop window holds one IPC pipe. A call
 * is a message `{ id, channel, input }` and its reply `{ reply, result }`
 * comes back on the same socket with the router's events `{ event, payload }`,
 * in the order main produced them. The router validates every input by the
 * contract, as ipcMain's binding does.
 *
 * Who is calling matters for a few channels only: a page signs itself out;
 * a script's token may not manage access (make tokens, change the password).
 */

/** Close codes the page's client acts on: signed out (go to the sign-in page), the server stopping (wait and reload). */
export const CLOSE_SIGNED_OUT = 4401;
export const CLOSE_GOING_AWAY = 1001;

/** The subprotocol a page asks for; its second one carries the CSRF token (`csrf.<token>`). */
export const BRIDGE_PROTOCOL = 'marketplace-desk';

export type Caller = { readonly kind: 'session'; readonly id: string } | { readonly kind: 'token'; readonly id: string };

export interface SocketBridge {
  /** Takes an upgrade already checked (host, origin, session or token, CSRF). */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, caller: Caller): void;
  /** Closes the sockets of a session or a token that ended. */
  drop(caller: Caller, code: number, reason: string): void;
  /** Opens a link in the page that asked for it (the trade offer it clicked), else in every page. */
  openLink(url: string): void;
  count(): number;
  close(code: number, reason: string): void;
}

export interface SocketBridgeOptions {
  readonly router: Router;
  readonly log: Pick<AppLog, 'debug' | 'warn'>;
  /** A page signs out: its session ends (and with it this socket). */
  readonly signOut: (sessionId: string) => void;
  /** Every message sent to a page, as sent (the tests scan them for secrets). */
  readonly onSend?: (text: string) => void;
}

/** A CSV part is a megabyte of text; a call is never larger than a few of them. */
const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** A page whose socket holds this much unsent is not reading: it is ended rather than fill memory. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
const PING_EVERY_MS = 30_000;

const callMessage = z.strictObject({ id: z.number().int().nonnegative(), channel: z.string().max(100), input: z.unknown() });

const ACCESS_MANAGEMENT = new Set(['access:createToken', 'access:revokeToken', 'access:changePassword']);

export function createSocketBridge(options: SocketBridgeOptions): SocketBridge {
  const { router, log } = options;
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, handleProtocols: (protocols) => (protocols.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false) });
  const sockets = new Map<WebSocket, { caller: Caller; alive: boolean }>();
  /** The socket whose trade-offer call is under way: the link it asked for opens there. */
  let asking: WebSocket | null = null;

  const send = (socket: WebSocket, message: object) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      log.warn('a page stopped reading its socket; closing it');
      socket.terminate();
      return;
    }
    const text = JSON.stringify(message);
    options.onSend?.(text);
    socket.send(text);
  };

  router.subscribe((event, payload) => {
    for (const socket of sockets.keys()) send(socket, { event, payload });
  });

  const pinger = setInterval(() => {
    for (const [socket, state] of sockets) {
      if (!state.alive) socket.terminate();
      else {
        state.alive = false;
        socket.ping();
      }
    }
  }, PING_EVERY_MS);
  pinger.unref();

  async function answer(socket: WebSocket, caller: Caller, channel: string, input: unknown): Promise<IpcResult<unknown>> {
    if (channel === 'access:signOut') {
      if (caller.kind !== 'session') return failure(refused('A token is revoked in Settings; it does not sign out.'));
      options.signOut(caller.id);
      return { ok: true, value: { ok: true } };
    }
    if (caller.kind === 'token' && ACCESS_MANAGEMENT.has(channel)) {
      return failure(new DomainError('forbidden', 'A bearer token cannot manage access: sign in with the password to make tokens or change it.'));
    }
    if (channel !== 'trades:openOffer') return router.invoke(channel, input);
    asking = socket;
    try {
      return await router.invoke(channel, input);
    } finally {
      asking = null;
    }
  }

  function connect(socket: WebSocket, caller: Caller): void {
    sockets.set(socket, { caller, alive: true });
    socket.on('pong', () => {
      const state = sockets.get(socket);
      if (state) state.alive = true;
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', (error) => log.debug('a page socket failed', { error }));
    socket.on('message', (data, isBinary) => {
      const parsed = isBinary ? null : callMessage.safeParse(parseJson(String(data)));
      if (!parsed?.success) {
        socket.close(1008, 'not a call of the bridge');
        return;
      }
      const { id, channel, input } = parsed.data;
      void answer(socket, caller, channel, input).then((result) => send(socket, { reply: id, result }));
    });
  }

  return {
    accept(req, socket, head, caller) {
      server.handleUpgrade(req, socket, head, (ws) => connect(ws, caller));
    },
    drop(caller, code, reason) {
      for (const [socket, state] of sockets) {
        if (state.caller.kind === caller.kind && state.caller.id === caller.id) socket.close(code, reason);
      }
    },
    openLink(url) {
      const targets = asking && sockets.has(asking) ? [asking] : [...sockets.keys()];
      for (const socket of targets) send(socket, { event: 'app:openLink', payload: { url } });
    },
    count: () => sockets.size,
    close(code, reason) {
      clearInterval(pinger);
      for (const socket of sockets.keys()) socket.close(code, reason);
      server.close();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function failure(error: unknown): IpcResult<unknown> {
  return { ok: false, error: boundedView(toErrorView(error)) };
}
