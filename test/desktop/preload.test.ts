import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createBridge } from '../../src-preload/bridge.ts';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../src-shared/contract.ts';
import { contextBridge, fakeEvent, ipcRenderer, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

beforeEach(() => resetFakeElectron());

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
    const api = createBridge(ipc as never, ['drafts:list'], []);
    expect(await api.invoke('drafts:list', { a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    await expect(api.invoke('fs:readFile', '/etc/passwd')).rejects.toThrow('Unknown channel "fs:readFile"');
    await expect(api.invoke(42 as never, null)).rejects.toThrow('Unknown channel');
    expect(ipc.invoke).toHaveBeenCalledOnce();
  });

  it('forwards event payloads only, never Electron\'s event object, and unsubscribes', () => {
    const ipc = fakeIpc();
    const api = createBridge(ipc as never, [], ['trades:changed']);
    const seen: unknown[] = [];
    const off = api.on('trades:changed', (payload) => seen.push(payload));
    ipc.fire('trades:changed', { count: 2 });
    off();
    ipc.fire('trades:changed', { count: 3 });
    expect(seen).toEqual([{ count: 2 }]);
    expect(() => api.on('secret:leak', () => undefined)).toThrow('Unknown event "secret:leak"');
  });

  it('is a frozen object with invoke and on alone', () => {
    const api = createBridge(fakeIpc() as never, [], []);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
  });
});

describe('the preload', () => {
  it('exposes window.api for the contract\'s names and nothing else', async () => {
    await import('../../src-preload/index.ts');
    expect([...contextBridge.exposed.keys()]).toEqual(['api']);
    const api = contextBridge.exposed.get('api') as ReturnType<typeof createBridge>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);

    const channel = CHANNEL_NAMES[0] as string;
    await api.invoke(channel, {});
    expect(ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(channel, {});
    await expect(api.invoke('shell:openExternal', 'https://evil.example/')).rejects.toThrow('Unknown channel');

    const event = EVENT_NAMES[0] as string;
    const seen: unknown[] = [];
    api.on(event, (p) => seen.push(p));
    ipcRenderer.emit(event, fakeEvent(), { hello: 1 });
    expect(seen).toEqual([{ hello: 1 }]);
  });
});
