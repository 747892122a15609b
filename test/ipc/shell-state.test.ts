import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src-main/sandbox/index.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { scaledClock } from '../../src-main/core/clock.ts';
import { shellStateOf } from '../../src-main/ipc/shell-state.ts';
import { trayPresentation } from '../../src-main/core/shell/tray-state.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';

let desk: Desk | null = null;
let dir = '';
afterEach(async () => {
  await desk?.close();
  desk = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('shell state of the desk', () => {
  it('shows automation, trades waiting and a running apply in the tray', async () => {
    dir = mkdtempSync(join(tmpdir(), 'shell-'));
    desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', clock: scaledClock(60), openSandbox: (clock) => startSandbox({ clock, seed: 4 }) });
    const ws = desk.workspace();
    await ws.accounts.refresh();
    await ws.trades.checkNow();
    const waiting = ws.trades.trades().filter((t) => t.needsAction).length;
    expect(shellStateOf(desk.services)).toMatchObject({ sandbox: true, automationPaused: false, tradesNeedingAction: waiting, job: null });

    const draft = ws.drafts.create('tray');
    const added = ws.drafts.addChanges(draft.id, [{ kind: 'buyOrder.create', sku: '5021;6', price: 100, quantity: 1 }]);
    expect(added.errors).toEqual([]);
    const handle = ws.apply.apply(draft.id);
    expect(shellStateOf(desk.services).job).toMatchObject({ itemsTotal: 1 });
    expect(trayPresentation(shellStateOf(desk.services)).tooltip).toMatch(/apply|Apply/);
    await handle.done;

    await desk.updateSettings({ heartbeatEnabled: false });
    expect(shellStateOf(desk.services)).toMatchObject({ heartbeat: 'off', automationPaused: true });
  });

  it('in live mode with no key says so in the tray, not that a key was refused', async () => {
    dir = mkdtempSync(join(tmpdir(), 'shell-'));
    const service = await startSandbox({ seed: 5 });
    try {
      desk = await createDesk({ dataDir: dir, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: service.url } });
      const ws = desk.workspace();
      for (let i = 0; i < 200 && ws.scheduler.state.blocked === null; i += 1) await new Promise((r) => setTimeout(r, 20));
      const tooltip = trayPresentation(shellStateOf(desk.services)).tooltip;
      expect(tooltip).toContain('No API key set');
      expect(tooltip).not.toMatch(/refused|rejected/);
    } finally {
      await desk?.close();
      desk = null;
      await service.close();
    }
  });
});
