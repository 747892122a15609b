import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeApi } from '../../src-shared/bridge.ts';
import { CHANNEL_NAMES, EVENT_NAMES } from '../../src-shared/contract.ts';
import { contextBridge, fakeEvent, ipcRenderer, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

beforeEach(() => resetFakeElectron());

describe('the preload', () => {
  it('exposes window.api for the contract\'s names and nothing else', async () => {
    await import('../../src-preload/index.ts');
    expect([...contextBridge.exposed.keys()]).toEqual(['api']);
    const api = contextBridge.exposed.get('api') as BridgeApi;
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
