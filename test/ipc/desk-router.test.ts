import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src-main/sandbox/index.ts';
import { CHANNEL_NAMES, factsOf, type ChannelOutput } from '../../src-shared/contract.ts';
import { call } from '../support/router-call.ts';
import { routerDeskFixture } from '../support/live-desk.ts';

const open = routerDeskFixture('router-');
const liveDesk = (timeScale = 1) => open({ scale: timeScale, sandbox: { seed: 9 } });

const creates = (s: Sandbox, n: number) =>
  s.admin.inventory().slice(0, n).map((a) => ({ kind: 'listing.create' as const, asset_id: a.asset_id, price: 300, promoted: 0 as const }));

describe('desk router', () => {
  it('answers the channels the contract gives the desk, and leaves main\'s own to main', async () => {
    const { router } = await liveDesk();
    const mine = CHANNEL_NAMES.filter((c) => factsOf(c).answeredBy === 'main');
    expect(mine.length).toBeGreaterThan(0);
    // Inputs that pass each channel's schema: what is refused is the channel, not what it was sent.
    const input: Partial<Record<string, unknown>> = {
      'access:createToken': { name: 'a script' },
      'access:revokeToken': { id: 'a1b2c3' },
      'access:changePassword': { current: 'the old one', next: 'a long new password' },
    };
    for (const channel of mine) {
      expect(await router.invoke(channel, input[channel] ?? {}), channel).toEqual({ ok: false, error: { kind: 'internal', message: `${channel} is not answered here.` } });
    }
    expect(await router.invoke('drafts:list', {})).toMatchObject({ ok: true });
  });

  it('refuses a change of service while an apply runs, and allows it after', async () => {
    const { router, desk: d, service: s } = await liveDesk();
    await d.updateSettings({ refuseUnautomatedPosts: false });
    // Six requests of creates: the sixth waits a whole minute for create_listing's 5/min.
    await call(router, 'drafts:addChanges', { changes: creates(s, 600) });
    const { job } = await call(router, 'drafts:apply', { draftId: d.workspace().drafts.current() ?? '' });
    expect(job).toMatchObject({ state: 'running', itemsTotal: 600 });

    const refused = await router.invoke('settings:update', { mode: 'sandbox' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'conflict', message: expect.stringMatching(/apply is running/) } });
    // A setting that changes no service is fine meanwhile.
    expect(await router.invoke('settings:update', { theme: 'dark' })).toMatchObject({ ok: true });

    await call(router, 'apply:cancel', { jobId: job?.jobId ?? '' });
    await d.workspace().apply.handles()[0]?.done;
    expect(await router.invoke('settings:update', { tradePollSeconds: 120 })).toMatchObject({ ok: true, value: { tradePollSeconds: 120 } });
  });

  it('refuses to apply while automation is off when the trader asked for that', async () => {
    const { router, desk: d } = await liveDesk();
    await d.updateSettings({ heartbeatEnabled: false });
    const draft = await call(router, 'drafts:create', { name: 'x' });
    const result = await router.invoke('drafts:apply', { draftId: draft.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'conflict', message: expect.stringMatching(/Automation is not active/) } });
  });

  it('a cancel ends in a terminal state, pushed with a newer stamp than any reply before it', async () => {
    const { router, desk: d, service: s, events } = await liveDesk();
    await d.updateSettings({ refuseUnautomatedPosts: false });
    await call(router, 'drafts:addChanges', { changes: creates(s, 600) });
    const started = await call(router, 'drafts:apply', { draftId: d.workspace().drafts.current() ?? '' });
    const cancelling = await call(router, 'apply:cancel', { jobId: started.job?.jobId ?? '' });
    expect(cancelling.stamp).toBeGreaterThanOrEqual(started.stamp);
    await d.workspace().apply.handles()[0]?.done;
    const pushed = events.filter((e) => e.event === 'apply:state').map((e) => e.payload as ChannelOutput<'apply:state'>);
    const last = pushed.at(-1);
    expect(last?.job?.state).toBe('cancelled');
    // A screen that keeps the newest stamp ends on "cancelled", whatever order the reply and the events arrive in.
    const newest = [cancelling, ...pushed].reduce((a, b) => (b.stamp >= a.stamp ? b : a));
    expect(newest.job?.state).toBe('cancelled');
    expect((await call(router, 'apply:state', {})).job?.state).toBe('cancelled');
  });

  it('keeps a finished apply with its draft, and lets it go when the draft is discarded', async () => {
    const { router, desk: d, service: s, events } = await liveDesk(30);
    await d.updateSettings({ refuseUnautomatedPosts: false });
    await call(router, 'drafts:addChanges', { changes: creates(s, 40) });
    const draftId = d.workspace().drafts.current() ?? '';
    await call(router, 'drafts:apply', { draftId });
    await d.workspace().apply.handles()[0]?.done;
    expect((await call(router, 'apply:state', {})).job).toMatchObject({ state: 'done', itemsDone: 40, draftId });
    await call(router, 'drafts:discard', { draftId });
    const after = await call(router, 'apply:state', {});
    expect(after.job).toBeNull();
    const lastPushed = events.filter((e) => e.event === 'apply:state').at(-1)?.payload as ChannelOutput<'apply:state'>;
    expect(lastPushed).toEqual(after);
  });

  it('undoes an ended apply into a new current draft; an apply that is not there is not_found, a malformed ID invalid', async () => {
    const { router, desk: d, service: s } = await liveDesk(30);
    await d.updateSettings({ refuseUnautomatedPosts: false });
    expect(await router.invoke('apply:undo', { runId: 4242 })).toEqual({
      ok: false, error: { kind: 'not_found', message: 'There is no apply 4242; it may have gone with its draft' },
    });
    for (const runId of ['1', 0, 1.5, -3]) {
      expect(await router.invoke('apply:undo', { runId }), String(runId)).toMatchObject({ ok: false, error: { kind: 'invalid', issues: [{ field: 'runId' }] } });
    }
    await call(router, 'drafts:addChanges', { changes: creates(s, 40) });
    await call(router, 'drafts:apply', { draftId: d.workspace().drafts.current() ?? '' });
    await d.workspace().apply.handles()[0]?.done;
    const { job } = await call(router, 'apply:state', {});
    expect(job).toMatchObject({ state: 'done', itemsDone: 40, runId: expect.any(Number) });
    const undo = await call(router, 'apply:undo', { runId: job?.runId ?? 0 });
    expect(undo).toMatchObject({ removed: 40, restored: 0, recreated: 0, notes: [], noteCounts: { lost: 0, changedSince: 0, partly: 0 } });
    expect((await call(router, 'drafts:list', {})).currentId).toBe(undo.draftId);
    expect((await call(router, 'drafts:review', { draftId: undo.draftId ?? '' })).openByKind).toEqual({ 'listing.delete': 40 });
  });

  it('announces ledger and draft changes with stamps and never sends a whole ledger or draft', async () => {
    const { router, desk: d, events } = await liveDesk();
    const ws = d.workspace();
    ws.repos.listings.upsertMany(Array.from({ length: 20_000 }, (_, i) => ({
      asset_id: String(1_000_000 + i), listing_id: `L${i}`, sku: '5021;6', price: 100 + i, promoted: 0 as const, game: '440', account: ws.accounts.snapshot().main?.account_id ?? '',
    })));
    ws.store.markLedgerChanged();
    const page = await call(router, 'ledger:page', { domain: 'listings', offset: 10_000, limit: 100 });
    expect(page).toMatchObject({ total: 20_000, offset: 10_000 });
    expect(page.rows).toHaveLength(100);
    const bulk = await call(router, 'ledger:bulk', { domain: 'listings', selection: { filter: {} }, op: { op: 'addCents', cents: 5 } });
    expect(bulk.changed).toBe(20_000);
    await new Promise((r) => setTimeout(r, 400));
    const drafts = events.filter((e) => e.event === 'drafts:changed').at(-1)?.payload as { stamp: number };
    expect(drafts.stamp).toBeGreaterThan(page.stamps.drafts);
    const ledger = events.filter((e) => e.event === 'ledger:changed').at(-1)?.payload as { stamp: number };
    expect(ledger.stamp).toBeGreaterThan(0);
    const largest = Math.max(...events.map((e) => JSON.stringify(e.payload).length), JSON.stringify(bulk).length, JSON.stringify(page).length);
    expect(largest).toBeLessThan(64 * 1024);
  });

  it('answers a bulk edit once journaled, and an edit sent while its parts are written waits for them instead of being refused', async () => {
    const { router, desk: d } = await liveDesk();
    const ws = d.workspace();
    const account = ws.accounts.snapshot().main?.account_id ?? '';
    ws.repos.listings.upsertMany(Array.from({ length: 20_000 }, (_, i) => ({
      asset_id: String(1_000_000 + i), listing_id: `L${i}`, sku: '5021;6', price: 100 + i, promoted: 0 as const, game: '440', account,
    })));
    ws.store.markLedgerChanged();
    const bulk = await call(router, 'ledger:bulk', { domain: 'listings', selection: { filter: {} }, op: { op: 'addCents', cents: 5 } });
    expect(bulk.changed).toBe(20_000);
    // Answered with parts still to write: the draft is busy, and the screens read the whole edit meanwhile.
    const draftId = bulk.draftId ?? '';
    expect(draftId).not.toBe('');
    expect(ws.drafts.busy(draftId)).toBe(true);
    const midway = await call(router, 'ledger:page', { domain: 'listings', offset: 19_990, limit: 10 });
    expect(midway.changed).toBe(20_000);
    expect(midway.rows.map((r) => r.pending?.price)).toEqual(Array.from({ length: 10 }, (_, i) => 100 + 19_990 + i + 5));
    // Sent at once, as a quick trader would: it waits for the parts, then lands on top of them.
    const edit = await router.invoke('drafts:addChanges', { changes: [{ kind: 'listing.edit', asset_id: '1000000', price: 777 }] });
    expect(edit).toMatchObject({ ok: true, value: { added: 1 } });
    expect(ws.drafts.busy(draftId)).toBe(false);
    const first = await call(router, 'ledger:page', { domain: 'listings', offset: 0, limit: 2 });
    expect(first.rows.map((r) => r.pending?.price)).toEqual([777, 106]);
  });
});
