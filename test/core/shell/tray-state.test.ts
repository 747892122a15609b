import { describe, expect, it } from 'vitest';
import { type ShellState, TOOLTIP_MAX, trayMenu, trayPresentation } from '../../../src-main/core/shell/tray-state.ts';

const base: ShellState = { heartbeat: 'active', automationPaused: false, tradesNeedingAction: 0, job: null };

describe('trayPresentation', () => {
  it('shows the heartbeat state when nothing else needs the trader', () => {
    expect(trayPresentation(base).icon).toBe('active');
    expect(trayPresentation(base).tooltip).toBe('Marketplace Desk\nListings marked as automated');
    expect(trayPresentation({ ...base, heartbeat: 'lapsed' }).tooltip).toContain('lapsed: listings not shown as automated');
    expect(trayPresentation({ ...base, heartbeat: 'off' }).icon).toBe('off');
    expect(trayPresentation({ ...base, heartbeat: 'expiring' }).icon).toBe('expiring');
  });

  it('puts a waiting trade above everything else, in icon and words', () => {
    const p = trayPresentation({ ...base, heartbeat: 'lapsed', tradesNeedingAction: 3 });
    expect(p.icon).toBe('attention');
    expect(p.tooltip.split('\n')).toEqual([
      'Marketplace Desk', 'Automated mark lapsed: listings not shown as automated', '3 trades need action',
    ]);
    expect(trayPresentation({ ...base, tradesNeedingAction: 1 }).tooltip).toContain('1 trade needs action');
  });

  it('says when automation is paused or the key was refused', () => {
    expect(trayPresentation({ ...base, automationPaused: true })).toMatchObject({ icon: 'off' });
    expect(trayPresentation({ ...base, automationPaused: true }).tooltip).toContain('Automation paused');
    const blocked = trayPresentation({ ...base, blocked: 'auth' });
    expect(blocked.icon).toBe('lapsed');
    expect(blocked.tooltip).toContain('API key refused');
    expect(blocked.menu.find((i) => i.id === 'toggle-automation')?.enabled).toBe(false);
  });

  it('offers Open, Pause/Resume, Check trades and Quit, and the apply while it runs', () => {
    expect(trayPresentation(base).menu.map((i) => i.label)).toEqual([
      'Open Marketplace Desk', 'Pause automation', 'Check trades now', 'Quit Marketplace Desk',
    ]);
    const running = trayPresentation({
      ...base, automationPaused: true,
      job: { state: 'running', itemsTotal: 400, itemsDone: 100, itemsFailed: 0, itemsUnknown: 0, etaMs: 180_000 },
    });
    expect(running.menu.map((i) => i.label)).toEqual([
      'Open Marketplace Desk', 'Resume automation', 'Check trades now',
      'Applying 100 of 400 items (25%), about 3 min left', 'Quit Marketplace Desk',
    ]);
  });

  it('keeps the tooltip within the Windows limit by dropping whole lines', () => {
    const p = trayPresentation({
      ...base, sandbox: true, heartbeat: 'lapsed', tradesNeedingAction: 12,
      job: { state: 'running', itemsTotal: 1_000_000, itemsDone: 123_456, itemsFailed: 0, itemsUnknown: 0, etaMs: 7_200_000 },
    });
    expect(p.tooltip.length).toBeLessThanOrEqual(TOOLTIP_MAX);
    expect(p.tooltip.split('\n')).toEqual([
      'Marketplace Desk (sandbox)', 'Automated mark lapsed: listings not shown as automated', '12 trades need action',
    ]);
  });
});

describe('the update item', () => {
  it('offers the restart when an update is ready, and says it waits during an apply', () => {
    expect(trayMenu(base).map((i) => i.id)).not.toContain('update');
    expect(trayMenu({ ...base, update: { version: '0.2.0', restartPending: false } }).find((i) => i.id === 'update')).toMatchObject({ label: 'Update ready — restart', enabled: true });
    expect(trayMenu({ ...base, update: { version: '0.2.0', restartPending: true } }).find((i) => i.id === 'update')).toMatchObject({ label: 'Update 0.2.0: restarts when the apply ends', enabled: false });
  });
});
