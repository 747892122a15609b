import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ITEM_NAME_MAX_LENGTH } from '../../../src-shared/field-rules.ts';
import { planTradeNotices } from '../../../src-main/core/shell/notification-groups.ts';
import { sandboxWorkspaces } from '../desk/sandbox-workspace.ts';

/**
 * Text the service sends is bounded and shown as text: a 10 MB item name in
 * load_pending is refused at the door (named), and markup or direction
 * controls in a name never reach a notification.
 */

const openWorkspace = sandboxWorkspaces('desk-text-');

async function open() {
  const opened = await openWorkspace(41);
  opened.sandbox.admin.addTrade({
    trade_type: 'market', status: 'Action Required', total: 300,
    items: [{ name: 'Team Captain', sku: '378;6', quantity: 1, price: 300, quality: 'Unique', image_url: '', particle_url: '' }],
  });
  return opened;
}

const bytesOnDisk = (dbPath: string) => [dbPath, `${dbPath}-wal`].filter(existsSync).reduce((sum, f) => sum + statSync(f).size, 0);

describe('text from the service', () => {
  it('refuses a 10 MB item name in load_pending, naming the endpoint and the field; nothing of it is stored or shown', async () => {
    const { ws, sandbox, dbPath } = await open();
    sandbox.faults.set({ hostileItemName: { endpoints: ['load_pending'], length: 10_000_000 } });
    const errors: unknown[] = [];
    ws.trades.on('error', (e) => errors.push(e));
    await ws.trades.checkNow({ fresh: true });
    const [error] = errors;
    expect(sandbox.log.requests.some((r) => r.endpoint === 'load_pending' && r.faults.includes('hostileItemName'))).toBe(true);
    expect(error).toMatchObject({ kind: 'bad_response' });
    const message = (error as { message: string }).message;
    expect(message).toMatch(/^load_pending: 0\.items\.0\.name: must be at most 300 characters/);
    expect(message.length).toBeLessThan(300);
    expect(JSON.stringify(error).length).toBeLessThan(5_000);
    expect(ws.trades.trades().flatMap((t) => t.items).every((i) => i.name.length <= ITEM_NAME_MAX_LENGTH)).toBe(true);
    expect(bytesOnDisk(dbPath)).toBeLessThan(2_000_000);
  });

  it('keeps markup and text direction controls in a name out of the notification', async () => {
    const { ws, sandbox } = await open();
    sandbox.faults.set({ hostileItemName: { endpoints: ['load_pending'] } });
    await ws.trades.checkNow({ fresh: true });
    const trades = ws.trades.trades();
    // Kept as the service said it (the screen shows it as text), and the toast shows it plain.
    expect(trades[0]?.items[0]?.name).toContain('\u202E');
    const plan = planTradeNotices(trades, new Set());
    const body = plan.notices.map((n) => `${n.title}\n${n.body}`).join('\n');
    expect(body).toContain('Free key exe.gnp Team Captain');
    expect(body).not.toMatch(/[<>\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  });
});
