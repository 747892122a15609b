/**
 * What the renderer gets as `window.api`: `invoke` for the contract's
 * channels, `on` for its events, nothing else. Both shells build it here: the
 * desktop's preload over Electron's IPC, the server's page over its
 * WebSocket (`src-preload/socket.ts`). Names outside the lists are refused
 * before anything leaves the page; main checks the sender and validates the
 * payload again. The renderer never sees the pipe's own event object
 * (Electron's carries the sender and `ipcRenderer` methods).
 */
export interface BridgeApi {
  invoke(channel: string, input: unknown): Promise<unknown>;
  /** Returns the function that removes this listener. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** The pipe to main, in `ipcRenderer`'s shape: listeners get the pipe's event first, then the payload. */
export interface BridgePipe {
  invoke(channel: string, input: unknown): Promise<unknown>;
  on(event: string, listener: (pipeEvent: unknown, payload: unknown) => void): unknown;
  removeListener(event: string, listener: (pipeEvent: unknown, payload: unknown) => void): unknown;
}

export function createBridge(pipe: BridgePipe, channelNames: readonly string[], eventNames: readonly string[]): BridgeApi {
  const channels = new Set(channelNames);
  const events = new Set(eventNames);
  return Object.freeze({
    invoke(channel: string, input: unknown): Promise<unknown> {
      if (typeof channel !== 'string' || !channels.has(channel)) {
        return Promise.reject(new Error(`Unknown channel "${String(channel)}".`));
      }
      return pipe.invoke(channel, input);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (typeof event !== 'string' || !events.has(event)) throw new Error(`Unknown event "${String(event)}".`);
      if (typeof listener !== 'function') throw new Error('A listener must be a function.');
      const forward = (_pipeEvent: unknown, payload: unknown) => listener(payload);
      pipe.on(event, forward);
      return () => {
        pipe.removeListener(event, forward);
      };
    },
  });
}
