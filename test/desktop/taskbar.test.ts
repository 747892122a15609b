import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShellState } from '../../src-main/core/shell/tray-state.ts';
import { app, BrowserWindow, resetFakeElectron } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { createTaskbarIndicator } = await import('../../src-main/main-thread/desktop/taskbar.ts');

const calm: ShellState = { heartbeat: 'active', automationPaused: false, tradesNeedingAction: 0, job: null };
const running = { state: 'running' as const, itemsTotal: 400, itemsDone: 100, itemsFailed: 0, itemsUnknown: 0, etaMs: 60_000 };

beforeEach(() => resetFakeElectron());

describe('createTaskbarIndicator', () => {
  it('shows apply progress on the taskbar and removes it when the job ends', () => {
    const win = new BrowserWindow({ width: 1, height: 1 });
    const bar = createTaskbarIndicator({ window: () => win as never, platform: 'linux' });
    bar.update({ ...calm, job: running });
    bar.update({ ...calm, job: running });
    bar.update({ ...calm, job: { ...running, itemsDone: 200, itemsFailed: 1 } });
    bar.update({ ...calm, job: { ...running, state: 'done' } });
    expect(win.progress).toEqual([[0.25, { mode: 'normal' }], [0.5025, { mode: 'error' }], [-1, { mode: 'none' }]]);
  });

  it('draws the bar again on a window opened anew (the last one was closed to the tray)', () => {
    const first = new BrowserWindow({ width: 1, height: 1 });
    let win: BrowserWindow | null = first;
    const bar = createTaskbarIndicator({ window: () => win as never, platform: 'win32', attentionIconPath: '/icons/attention.png' });
    const state = { ...calm, tradesNeedingAction: 1, job: running };
    bar.update(state);
    first.destroy();
    win = null;
    bar.update(state);
    const second = new BrowserWindow({ width: 1, height: 1 });
    win = second;
    bar.update(state);
    expect(second.progress).toEqual([[0.25, { mode: 'normal' }]]);
    expect(second.overlays).toEqual([[{ path: '/icons/attention.png' }, '1 trades need action']]);
  });

  it('badges the dock or launcher with the trades needing action', () => {
    const bar = createTaskbarIndicator({ window: () => null, platform: 'darwin' });
    bar.update({ ...calm, tradesNeedingAction: 3 });
    bar.update({ ...calm, tradesNeedingAction: 3 });
    bar.update(calm);
    expect(app.setBadgeCount.mock.calls).toEqual([[3], [0]]);
  });

  it('uses an overlay icon on Windows', () => {
    const win = new BrowserWindow({ width: 1, height: 1 });
    const bar = createTaskbarIndicator({ window: () => win as never, platform: 'win32', attentionIconPath: '/icons/attention.png' });
    bar.update({ ...calm, tradesNeedingAction: 2 });
    bar.update(calm);
    expect(win.overlays).toEqual([[{ path: '/icons/attention.png' }, '2 trades need action'], [null, '']]);
    expect(app.setBadgeCount).not.toHaveBeenCalled();
  });
});
