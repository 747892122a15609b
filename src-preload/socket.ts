/**
 * The server shell's preload: gives the page `window.api` over the server's
 * WebSocket, built by the same `createBridge` the desktop preload uses over
 * IPC, so the renderer sees one contract in both shells. The server puts it
 * before the app's script, with the session's CSRF token in a meta element
 * (sent as a subprotocol of the handshake).
 *
 * A socket that closes is opened again once the server answers; as when the
 * desktop window is opened again, the page is then built afresh from what
 * main answers. Signed out (the session ended or expired), it goes to the
 * sign-in page.
 */
import { createBridge, type BridgePipe } from '../src-shared/bridge.ts';
import { CHANNEL_NAMES, EVENT_NAMES } from '../src-shared/channels.ts';

/** Close codes the server sends (server/socket-bridge.ts). */
const SIGNED_OUT = 4401;
const PROTOCOL = 'marketplace-desk';

type Listener = (pipeEvent: unknown, payload: unknown) => void;

const csrf = document.querySelector<HTMLMetaElement>('meta[name="desk-csrf"]')?.content ?? '';
const listeners = new Map<string, Set<Listener>>();
const waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
/** Calls made while the socket opens: sent once it is open. */
const unsent: string[] = [];
let next = 1;
let socket: WebSocket | null = null;
let opened = false;

function open(): void {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/bridge`, [PROTOCOL, `csrf.${csrf}`]);
  socket = ws;
  ws.onopen = () => {
    opened = true;
    for (const line of unsent.splice(0)) ws.send(line);
  };
  ws.onmessage = (m: MessageEvent<string>) => {
    const message = JSON.parse(m.data) as { reply?: number; result?: unknown; event?: string; payload?: unknown };
    if (message.reply !== undefined) {
      waiting.get(message.reply)?.resolve(message.result);
      waiting.delete(message.reply);
    } else if (message.event === 'app:openLink') {
      const url = (message.payload as { url?: unknown } | null)?.url;
      if (typeof url === 'string') window.open(url, '_blank', 'noopener,noreferrer');
    } else if (message.event !== undefined) {
      for (const listener of [...(listeners.get(message.event) ?? [])]) listener(null, message.payload);
    }
  };
  ws.onclose = (e: CloseEvent) => {
    socket = null;
    if (e.code === SIGNED_OUT) return location.assign('/login');
    // Never open: the calls wait for the next try. Lost after opening: they may have been done; the page is built again.
    if (opened) {
      for (const w of waiting.values()) w.reject(new Error('The connection to the desk was lost; what was asked may still have been done.'));
      waiting.clear();
    }
    void whenBack(opened);
  };
}

/** Waits for the server, then reloads the page (or opens the socket, the first time), or goes to sign in when the session is gone. */
async function whenBack(reload: boolean): Promise<void> {
  for (let delay = 500; ; delay = Math.min(delay * 2, 10_000)) {
    await new Promise((r) => setTimeout(r, delay));
    let status: number;
    try {
      status = (await fetch('/session', { cache: 'no-store', credentials: 'same-origin' })).status;
    } catch {
      continue;
    }
    if (status === 401) return location.assign('/login');
    if (status !== 200) continue;
    if (reload) return location.reload();
    return open();
  }
}

const pipe: BridgePipe = {
  invoke(channel, input) {
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      const line = JSON.stringify({ id, channel, input: input ?? {} });
      if (socket?.readyState === WebSocket.OPEN) socket.send(line);
      else unsent.push(line);
    });
  },
  on(event, listener) {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(listener);
  },
  removeListener(event, listener) {
    listeners.get(event)?.delete(listener);
  },
};

Object.defineProperty(window, 'api', { value: createBridge(pipe, CHANNEL_NAMES, EVENT_NAMES), enumerable: true });
open();
