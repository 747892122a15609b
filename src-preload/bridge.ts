import type { IpcRenderer, IpcRendererEvent } from 'electron';

/**
 * What the preload hands the renderer as `window.api`: `invoke` for the
 * contract's channels, `on` for its events, nothing else. Names outside the
 * lists are refused here, before anything crosses to the main process, which
 * checks the sender and validates the payload again. The renderer never sees
 * Electron's event object (it carries the sender and `ipcRenderer` methods).
 */
export interface BridgeApi {
  invoke(channel: string, input: unknown): Promise<unknown>;
  /** Returns the function that removes this listener. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export function createBridge(
  ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>,
  channelNames: readonly string[],
  eventNames: readonly string[],
): BridgeApi {
  const channels = new Set(channelNames);
  const events = new Set(eventNames);
  return Object.freeze({
    invoke(channel: string, input: unknown): Promise<unknown> {
      if (typeof channel !== 'string' || !channels.has(channel)) {
        return Promise.reject(new Error(`Unknown channel "${String(channel)}".`));
      }
      return ipc.invoke(channel, input);
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (typeof event !== 'string' || !events.has(event)) throw new Error(`Unknown event "${String(event)}".`);
      if (typeof listener !== 'function') throw new Error('A listener must be a function.');
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipc.on(event, forward);
      return () => {
        ipc.removeListener(event, forward);
      };
    },
  });
}
