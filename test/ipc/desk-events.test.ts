import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledClock } from '../../src-main/core/clock.ts';
import { createDesk, type Desk } from '../../src-main/core/desk/desk.ts';
import { createDeskRouter } from '../../src-main/ipc/desk-router.ts';
import type { Router } from '../../src-main/ipc/router.ts';
import { startSandbox, type Sandbox } from '../../src-main/sandbox/index.ts';
import type { ChannelOutput, EventName, EventPayload } from '../../src-shared/contract.ts';
import { memoryKeychain } from '../support/memory-keychain.ts';
import { until } from '../support/until.ts';

/** Main's changes pushed on the bridge: a desk in live mode against the simulator, behind the app's router. */

let desk: Desk | null = null;
let service: Sandbox | null = null;
let dir = '';
afterEach(async () => {
  await desk?.close();
  await service?.close();
  desk = null;
  service = null;
  rmSync(dir, { recursive: true, force: true });
});

async function liveDesk(): Promise<{ router: Router; desk: Desk; service: Sandbox; events: Array<{ event: EventName; payload: unknown }> }> {
  dir = mkdtempSync(join(tmpdir(), 'desk-events-'));
  // A minute of the service lasts 0.2 s.
  const clock = scaledClock(300);
  service = await startSandbox({ seed: 12, clock, tradeSchedule: false });
  desk = await createDesk({ dataDir: dir, clock, secrets: memoryKeychain(), version: 't', initialSettings: { mode: 'live', serviceUrl: service.url, refuseUnautomatedPosts: false }, inventoryUrl: service.url });
  const { router } = createDeskRouter(desk, { openLink: () => undefined }, { checkOutputs: true });
  const events: Array<{ event: EventName; payload: unknown }> = [];
  router.subscribe((event, payload) => events.push({ event, payload }));
  await router.invoke('key:set', { key: service.apiKey });
  const ws = desk.workspace();
  await until('the main account', () => ws.accounts.snapshot().main);
  return { router, desk, service, events };
}

const pushed = (events: Array<{ event: EventName; payload: unknown }>) =>
  events.filter((e) => e.event === 'activity:added').map((e) => e.payload as EventPayload<'activity:added'>);

describe('activity on the bridge', () => {
  it('pushes the entries the activity log gains, stamped, ending as activity:list shows them with their outcome', async () => {
    const { router, desk: d, service: s, events } = await liveDesk();
    const ws = d.workspace();
    const free = s.admin.inventory().slice(0, 150);
    const { id } = ws.drafts.create('two batches');
    ws.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })));
    await ws.apply.apply(id).done;

    const listed = await router.invoke('activity:list', {});
    if (!listed.ok) throw new Error(listed.error.message);
    const entries = listed.value as ChannelOutput<'activity:list'>;
    expect(entries.map((e) => [e.endpoint, e.itemCount, e.outcome])).toEqual([['create_listing', 50, 'done'], ['create_listing', 100, 'done']]);
    // The newest push of each entry says what activity:list says.
    await until('both outcomes pushed', () => pushed(events).filter((p) => p.outcome === 'done').length === 2);
    const newest = new Map(pushed(events).map((p) => [p.id, p]));
    for (const entry of entries) expect(newest.get(entry.id)).toMatchObject(entry);
    // Each push carries the activity stamp, never going back.
    const stamps = pushed(events).map((p) => p.stamp);
    expect(stamps.every((st, i) => i === 0 || st >= (stamps[i - 1] ?? 0))).toBe(true);
  });

  it('bounds a burst: at most 200 entries a push, the newest, in order', async () => {
    const { desk: d, events } = await liveDesk();
    const ws = d.workspace();
    const before = pushed(events).length;
    for (let i = 0; i < 450; i++) {
      ws.repos.activity.recordNote({ endpoint: 'load_pending', account: null, targets: [`L:${i}`], note: `sold in trade ${i}` });
    }
    await until('the burst pushed', () => pushed(events).length > before);
    await new Promise((r) => setTimeout(r, 400));
    const burst = pushed(events).slice(before);
    expect(burst.length).toBeLessThanOrEqual(200);
    expect(burst.at(-1)?.message).toMatch(/sold in trade 449/);
    // Oldest first, so a screen that puts each at the top ends with the newest there.
    const ids = burst.map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(burst.map((p) => p.stamp)).size).toBe(1);
  });
});
