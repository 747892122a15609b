import { describe, expect, it } from 'vitest';
import { applyFixture } from './support.ts';

// A minute of the service lasts 0.1 s.
const start = applyFixture(600);

describe('suspending applies for a quit', () => {
  it('waits for the batch in flight, sends nothing more, and leaves the run for the next start to resume', async () => {
    const s = await start();
    const { sandbox } = s.live;
    const free = sandbox.admin.inventory().slice(0, 700);
    const { id } = s.drafts.create('quit mid-apply');
    s.drafts.addChanges(id, free.map((a) => ({ kind: 'listing.create', asset_id: a.asset_id, price: 300, promoted: 0, game: a.game })));
    // Each create takes 0.3 s, so the suspend below finds batches on their way.
    sandbox.faults.set({ delayMs: { ms: 180_000, endpoints: ['create_listing'] } });
    const handle = s.apply.apply(id);
    // Apply sends one batch first; its answer plans the rest of the window, which goes at once.
    while (s.t.repos.journal.batches({ states: ['sent'] }).length < 2) await new Promise((r) => setTimeout(r, 5));

    const suspending = s.apply.suspend();
    const onTheirWay = s.t.repos.journal.batches({ states: ['sent', 'done'] }).length;
    await suspending;
    expect(s.t.repos.journal.batches({ states: ['sent'] })).toEqual([]);
    // What was on its way was answered and journaled; nothing went after.
    expect(s.t.repos.journal.batches({ states: ['done'] })).toHaveLength(onTheirWay);
    expect(sandbox.admin.listings()).toHaveLength(onTheirWay * 100);
    expect(() => s.apply.apply(id)).toThrow(/quitting/);
    // Closing the scheduler ends the job; the run stays open in the journal.
    s.live.scheduler.close();
    await handle.done;
    expect(s.t.repos.journal.runs({ state: 'running' })).toHaveLength(1);

    // Nothing the next start would have to show as unknown: it resumes the run (the boot test drives that).
    expect(s.t.repos.journal.batches({ states: ['sent', 'unknown'] })).toEqual([]);
    expect(s.t.repos.journal.batches({ states: ['planned'] }).length).toBeGreaterThan(0);
  });
});
