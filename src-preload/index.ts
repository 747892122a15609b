/**
 * The preload: exposes `window.api` (invoke/on) for the contract's channel
 * and event names only. It runs sandboxed, so it is bundled to one CommonJS
 * file and may require nothing but `electron`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from '../src-shared/bridge.ts';
import { CHANNEL_NAMES, EVENT_NAMES } from '../src-shared/channels.ts';

contextBridge.exposeInMainWorld('api', createBridge(ipcRenderer, CHANNEL_NAMES, EVENT_NAMES));
