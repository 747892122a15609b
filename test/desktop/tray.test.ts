import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ShellState } from '../../src-main/core/shell/tray-state.ts';
import { resetFakeElectron, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));
const { createTray } = await import('../../src-main/main-thread/desktop/tray.ts');

const calm: ShellState = { heartbeat: 'active', automationPaused: false, tradesNeedingAction: 0, job: null };

function setup(initial: ShellState = calm) {
  const cb = { onOpen: vi.fn(), onToggleAutomation: vi.fn(), onCheckTrades: vi.fn(), onQuit: vi.fn() };
  const tray = createTray({ iconDir: '/icons', initial, ...cb });
  const fake = Tray.instances[0];
  if (!fake) throw new Error('no tray created');
  return { tray, fake, cb };
}

beforeEach(() => resetFakeElectron());

describe('createTray', () => {
  it('starts with the icon, words and menu of the state', () => {
    const { fake } = setup();
    expect(fake.image).toEqual({ path: join('/icons', 'active.png') });
    expect(fake.tooltip).toBe('Marketplace Desk\nListings marked as automated');
    expect(fake.menu?.items.map((i) => i.label ?? i.type)).toEqual([
      'Open Marketplace Desk', 'separator', 'Pause automation', 'Check trades now', 'separator', 'Quit Marketplace Desk',
    ]);
  });

  it('turns menu clicks and a tray click into the given callbacks', () => {
    const { fake, cb } = setup();
    fake.clickItem('open');
    fake.clickItem('toggle-automation');
    fake.clickItem('check-trades');
    fake.clickItem('quit');
    fake.emit('click');
    expect(cb.onOpen).toHaveBeenCalledTimes(2);
    expect(cb.onToggleAutomation).toHaveBeenCalledOnce();
    expect(cb.onCheckTrades).toHaveBeenCalledOnce();
    expect(cb.onQuit).toHaveBeenCalledOnce();
  });

  it('follows state changes: trades waiting, heartbeat lapsed, pause, an apply running', () => {
    const { tray, fake, cb } = setup();
    tray.update({ ...calm, tradesNeedingAction: 2 });
    expect(fake.image).toEqual({ path: join('/icons', 'attention.png') });
    expect(fake.tooltip).toContain('2 trades need action');
    tray.update({ ...calm, heartbeat: 'lapsed' });
    expect(fake.image).toEqual({ path: join('/icons', 'lapsed.png') });
    tray.update({ ...calm, automationPaused: true, job: { state: 'running', itemsTotal: 200, itemsDone: 50, itemsFailed: 0, itemsUnknown: 0, etaMs: null } });
    expect(fake.image).toEqual({ path: join('/icons', 'off.png') });
    expect(fake.menu?.items.map((i) => i.label).filter(Boolean)).toContain('Resume automation');
    expect(fake.menu?.items.find((i) => i.id === 'job')?.label).toBe('Applying 50 of 200 items (25%)');
    fake.clickItem('job');
    expect(cb.onOpen).toHaveBeenCalledOnce();
  });

  it('touches the tray only for what changed', () => {
    const { tray, fake } = setup();
    const before = { ...fake.calls };
    tray.update({ ...calm });
    expect(fake.calls).toEqual(before);
    tray.update({ ...calm, heartbeat: 'expiring' });
    expect(fake.calls.setImage).toBe(before.setImage + 1);
    expect(fake.calls.setContextMenu).toBe(before.setContextMenu);
  });

  it('removes the icon on destroy', () => {
    const { tray, fake } = setup();
    tray.destroy();
    expect(fake.destroyed).toBe(true);
  });
});
