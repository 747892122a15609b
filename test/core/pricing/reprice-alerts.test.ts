import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../src-main/core/alerts/alert.ts';
import { createDeskShell } from '../../../src-main/worker/desk-shell.ts';
import type { DeskNotice } from '../../../src-main/core/shell/reprice-notice.ts';
import { adopt } from '../../e2e/desk-fixture.ts';
import { until } from '../../support/until.ts';
import { call } from '../../support/router-call.ts';
import { verifyDeskSignature } from '../../support/webhook-receiver.ts';
import { expectedPrice, isStrangeWeapon, sellCents, strangeWeaponsRule } from '../../support/reprice-expect.ts';
import { alertDeskFixture } from '../desk/alert-desk.ts';

/**
 * A scheduled reprice that leaves changes the price guard marked waiting in
 * a draft tells the trader: a desktop notification (the shell's `notice`,
 * which main shows beside the trades') and an alert to each webhook that
 * takes applies, in Discord's format and as signed JSON: how many rows, why
 * (the guard's marks counted), which draft. Against the simulator, to
 * receivers on 127.0.0.1.
 */

const open = alertDeskFixture();
const DISCORD_PATH = '/api/webhooks/1187/RepriceTokenPart-0a1b2c3d4e5f';
const SIGNED_PATH = '/relay/desk?key=reprice-relay-token-77';
const SECRET = 'reprice-secret-4b8e2d61a0c9';

describe('a scheduled reprice with marked changes waiting', () => {
  it('notifies on the desktop and alerts each webhook in both formats: how many wait, why, in which draft', async () => {
    const d = await open({ scale: 60, sandbox: { inventorySize: 3_000 }, held: true });
    const ws = d.desk.workspace();
    const { sandbox } = d;
    // 12 Strange weapons listed at $1.50 (deep cuts or rises, left to the trader), 12 a tenth over their new price (applied on their own).
    const cheap = sandbox.admin.seedListingsOf(12, (a) => isStrangeWeapon(a.sku), 150);
    const gentle = sandbox.admin.inventory().filter((a) => isStrangeWeapon(a.sku) && !cheap.some((c) => c.asset_id === a.asset_id)).slice(0, 12)
      .flatMap((a) => sandbox.admin.seedListingsOf(1, (b) => b.asset_id === a.asset_id, Math.round(expectedPrice(sellCents(sandbox.pricedb, a.sku), sandbox.pricedb.cost(a.sku), 3, 5).price * 1.1) + 1));
    adopt(ws.repos, sandbox, [...cheap, ...gentle]);
    ws.pricing.costs.setManual([...cheap, ...gentle].map((l) => ({ sku: l.sku, unitCost: sandbox.pricedb.cost(l.sku), quantity: 1 })));
    ws.pricing.service.addRule(strangeWeaponsRule());
    const alerts = { trades: false, automation: false, apply: true };
    await call(d.router, 'alerts:add', { format: 'discord', name: 'Pricing channel', url: `${d.receiver.origin}${DISCORD_PATH}`, alerts });
    await call(d.router, 'alerts:add', { format: 'signed', name: 'Relay', url: `${d.receiver.origin}${SIGNED_PATH}`, secret: SECRET, alerts });
    const shell = createDeskShell(d.desk.services);
    const notices: DeskNotice[] = [];
    shell.on('notice', (n) => notices.push(n));
    d.startServices();

    const news = await ws.pricing.schedule.runNow();
    shell.dispose();
    expect(news.waiting).toBeGreaterThan(0);
    expect(news.applied).toBeGreaterThan(0);
    // Why, as the run's rows say it.
    const rows = ws.pricing.service.page(news.runId, 'change', 0, 500).rows.filter((r) => r.mark !== null);
    const why: Record<string, number> = {};
    for (const r of rows) why[r.mark ?? ''] = (why[r.mark ?? ''] ?? 0) + 1;
    expect(rows).toHaveLength(news.waiting);
    expect(news.waitingWhy).toEqual(why);
    expect(ws.drafts.entries(news.waitingDraftId ?? '')).toHaveLength(news.waiting);
    const draftName = news.waitingDraftName ?? '';
    const whyWords = Object.entries(why).sort((a, b) => b[1] - a[1]).map(([mark, n]) => `${n} ${{ drop: 'deep cut', rise: 'steep rise', under_cost: 'under cost', under_margin: 'under cost + margin' }[mark] ?? mark}`).join(', ');

    // The desktop notification: once, plain text, opening Pricing.
    expect(notices).toEqual([{
      title: `${news.waiting} repriced changes wait for you: marked by the price guard`,
      body: `${whyWords}: in “${draftName}”, for you to review and apply. ${news.applied} prices the guard let through applied on their own.`,
      view: 'pricing',
    }]);

    // Each webhook: the apply that ended, and the changes waiting.
    const reprice = (path: string) => d.receiver.to(path).filter((r) => r.body.includes('repriced change'));
    await until('both webhooks told', () => reprice(DISCORD_PATH).length === 1 && reprice(SIGNED_PATH).length === 1, 20_000);
    const discord = JSON.parse(reprice(DISCORD_PATH)[0]?.body ?? '{}') as { embeds: Array<{ title: string; fields: Array<{ name: string; value: string }> }>; allowed_mentions: unknown };
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    expect(discord.embeds[0]?.title).toBe(notices[0]?.title);
    expect(discord.embeds[0]?.fields.map((f) => [f.name, f.value.replace(/\\(.)/g, '$1')])).toEqual([['Waiting', String(news.waiting)], ['Why', whyWords], ['Draft', draftName]]);
    const signed = reprice(SIGNED_PATH)[0];
    expect(verifyDeskSignature({ secret: SECRET, headers: signed?.headers ?? {}, body: signed?.body ?? '', nowSec: Math.floor(d.clock.now() / 1000), toleranceSec: 24 * 3600 })).toBe('ok');
    const body = JSON.parse(signed?.body ?? '{}') as { type: Alert['type']; data: unknown };
    expect(signed?.headers['x-desk-event']).toBe('reprice.waiting');
    expect(body).toMatchObject({ type: 'reprice.waiting', data: { waiting: news.waiting, why, draftId: news.waitingDraftId, draft: draftName, applied: news.applied } });
  }, 60_000);
});
