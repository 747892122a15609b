import { describe, expect, it, vi } from 'vitest';
import { createBridge } from '../../src-shared/bridge.ts';

/** The window.api both shells hand the renderer (the preload over IPC, the server's page over its socket). */

function fakeIpc() {
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  return {
    listeners,
    invoke: vi.fn(async (_channel: string, input: unknown) => ({ ok: true, value: input })),
    on(channel: string, l: (event: unknown, payload: unknown) => void) {
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(l));
      return this;
    },
    removeListener(channel: string, l: (event: unknown, payload: unknown) => void) {
      listeners.get(channel)?.delete(l);
      return this;
    },
    fire(channel: string, payload: unknown) {
      for (const l of listeners.get(channel) ?? []) l({ sender: 'ipcRenderer internals', senderFrame: {} }, payload);
    },
  };
}

describe('createBridge', () => {
  it('invokes the contract\'s channels and refuses any other before it leaves the renderer', async () => {
    const ipc = fakeIpc();
    const api = createBridge(ipc, ['drafts:list'], []);
    expect(await api.invoke('drafts:list', { a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    await expect(api.invoke('fs:readFile', '/etc/passwd')).rejects.toThrow('Unknown channel "fs:readFile"');
    await expect(api.invoke(42 as never, null)).rejects.toThrow('Unknown channel');
    expect(ipc.invoke).toHaveBeenCalledOnce();
  });

  it('forwards event payloads only, never Electron\'s event object, and unsubscribes', () => {
    const ipc = fakeIpc();
    const api = createBridge(ipc, [], ['trades:changed']);
    const seen: unknown[] = [];
    const off = api.on('trades:changed', (payload) => seen.push(payload));
    ipc.fire('trades:changed', { count: 2 });
    off();
    ipc.fire('trades:changed', { count: 3 });
    expect(seen).toEqual([{ count: 2 }]);
    expect(() => api.on('secret:leak', () => undefined)).toThrow('Unknown event "secret:leak"');
  });

  it('is a frozen object with invoke and on alone', () => {
    const api = createBridge(fakeIpc(), [], []);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
  });
});

