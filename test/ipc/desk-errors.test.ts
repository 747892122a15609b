import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startLiveDesk, type LiveDesk } from './live-desk.ts';

/**
 * The trader's own mistakes and the desk's passing states reach the screen
 * as what they are (`not_found`, `conflict`, `busy`, each worded by the
 * renderer), never as "Something went wrong": an ID that names nothing, a
 * draft being applied, a data file another program holds, a full disk.
 */

let live: LiveDesk | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe('errors that are the trader’s, through the router over a real desk', () => {
  it('an unknown draft, outcome or import preview is not_found, quoting the ID short and printable', async () => {
    live = await startLiveDesk(31);
    const { router } = live;
    // The longest draft ID the contract takes, with terminal controls in it.
    const ghost = `gone\u001b[2J${'z'.repeat(90)}`;
    const calls = [
      router.invoke('drafts:page', { draftId: ghost }),
      router.invoke('drafts:review', { draftId: ghost }),
      router.invoke('drafts:select', { draftId: ghost }),
      router.invoke('drafts:rename', { draftId: ghost, name: 'x' }),
      router.invoke('drafts:discard', { draftId: ghost }),
      router.invoke('drafts:exportCsv', { draftId: ghost }),
      router.invoke('drafts:apply', { draftId: ghost }),
    ];
    for (const result of await Promise.all(calls)) {
      expect(result).toMatchObject({ ok: false, error: { kind: 'not_found', message: expect.stringMatching(/^There is no draft “gone\uFFFD\[2Jz+… \(\d+ more characters\)”; it may have been discarded$/) } });
    }
    expect(await router.invoke('apply:resolve', { id: '12345', choice: 'drop' })).toMatchObject({
      ok: false, error: { kind: 'not_found', message: 'There is no unresolved unknown outcome “12345”; it may have been resolved already' },
    });
    expect(await router.invoke('drafts:importCommit', { token: 'expired-or-made-up' })).toMatchObject({
      ok: false, error: { kind: 'not_found', message: expect.stringMatching(/expired or was already imported/) },
    });
    const draft = await call(router, 'drafts:create', { name: 'd' });
    expect(await router.invoke('drafts:removeChanges', { draftId: draft.id, changeIds: ['X:1'] })).toMatchObject({
      ok: false, error: { kind: 'not_found', message: 'There is no change “X:1” in this draft' },
    });
  });

  it('discarding a draft whose changes are being applied is a conflict, and the draft stays', async () => {
    live = await startLiveDesk(32);
    const { router, desk, service } = live;
    await desk.updateSettings({ refuseUnautomatedPosts: false });
    const draft = await call(router, 'drafts:create', { name: 'in flight' });
    // Six requests of creates: the sixth waits a minute for create_listing's 5/min, so the apply is still running.
    const changes = service.admin.inventory().slice(0, 600).map((a) => ({ kind: 'listing.create' as const, asset_id: a.asset_id, price: 300, promoted: 0 as const }));
    await call(router, 'drafts:addChanges', { changes });
    const started = await call(router, 'drafts:apply', { draftId: draft.id });

    expect(await router.invoke('drafts:discard', { draftId: draft.id })).toMatchObject({
      ok: false, error: { kind: 'conflict', message: expect.stringMatching(/changes being applied or with an unknown outcome/) },
    });
    expect((await call(router, 'drafts:list', {})).drafts.map((d) => d.id)).toContain(draft.id);

    await call(router, 'apply:cancel', { jobId: started.job?.jobId ?? '' });
    await desk.workspace().apply.handles()[0]?.done;
  });

  it('a data file held by another program is busy, and nothing is lost once it is free', async () => {
    live = await startLiveDesk(33);
    const { router, dir } = live;
    const kept = await call(router, 'drafts:create', { name: 'kept' });
    // Another process (a backup tool, a second copy of the app) holds the write lock past the 5 s busy timeout.
    const other = new DatabaseSync(join(dir, 'default.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const refused = await router.invoke('drafts:create', { name: 'blocked' });
      expect(refused).toMatchObject({ ok: false, error: { kind: 'busy', message: expect.stringMatching(/in use by another task or program/) } });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await call(router, 'drafts:create', { name: 'after' });
    expect((await call(router, 'drafts:list', {})).drafts.map((d) => d.name).sort()).toEqual(['after', 'kept']);
    expect((await call(router, 'drafts:page', { draftId: kept.id, show: 'all' })).total).toBe(0);
  });

  it('a full disk is disk_full, said as a sentence, and the same edit goes through once there is room', async () => {
    live = await startLiveDesk(34);
    const { router, desk, service } = live;
    const draft = await call(router, 'drafts:create', { name: 'full' });
    const changes = service.admin.inventory().slice(0, 2_000).map((a) => ({ kind: 'listing.create' as const, asset_id: a.asset_id, price: 300, promoted: 0 as const }));
    // The profile's file may not grow: SQLite answers "database or disk is full".
    desk.workspace().store.setPageLimit(0);
    const refused = await router.invoke('drafts:addChanges', { changes });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'disk_full', message: expect.stringMatching(/^The disk is full.*Nothing saved before is lost/) } });
    expect((await call(router, 'drafts:page', { draftId: draft.id, show: 'all' })).total).toBe(0);
    desk.workspace().store.setPageLimit(null);
    expect(await call(router, 'drafts:addChanges', { changes })).toMatchObject({ added: 2_000 });
  });
});
