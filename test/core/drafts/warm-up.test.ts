import { afterEach, describe, expect, it, vi } from 'vitest';
import { SLICE_ROWS, type Turn } from '../../../src-main/core/drafts/sliced-read.ts';
import { draftFixture, ledgerListing, seedListings, type DraftFixture } from './fixtures.ts';

/**
 * After a workspace opens, the drafts read the ledger and the current draft a
 * slice at a time (other calls are answered in between), so the first screen
 * that shows them does not wait for the whole read. Whatever happens during
 * that read, what the drafts then answer is what a fresh read would give.
 */

let f: DraftFixture;
afterEach(() => f.dispose());

const LEDGER = SLICE_ROWS * 2 + 500;
const CHANGED = SLICE_ROWS * 2 + 100;

/** A restarted desk whose current draft reprices CHANGED of LEDGER listings, nothing of it read yet. */
function restartedWithDraft(): string {
  f = draftFixture();
  seedListings(f.t, LEDGER);
  const { id } = f.drafts.create('Big repricing');
  const keep = Array.from({ length: LEDGER - CHANGED }, (_, i) => String(1_000_000 + CHANGED + i));
  expect(f.bulk(id, 'listings', { filter: {}, except: keep }, { op: 'addCents', cents: 10 }).changed).toBe(CHANGED);
  f.runDeferred();
  f.restart();
  return id;
}

/** Turns the test hands out one at a time, counting them. */
function manualTurns() {
  let waiting: (() => void)[] = [];
  let given = 0;
  const turn: Turn = () => new Promise((resolve) => waiting.push(resolve));
  return {
    turn,
    given: () => given,
    /** Lets the warm-up take one more turn (one slice), then lets its promises settle. */
    async next(): Promise<void> {
      const now = waiting;
      waiting = [];
      given += now.length;
      for (const resolve of now) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Hands out turns until `done()` holds (at most 100). */
    async until(done: () => boolean): Promise<void> {
      for (let i = 0; i < 100 && !done(); i++) await this.next();
      expect(done()).toBe(true);
    },
  };
}

/** Starts the warm-up on the fixture's drafts; the returned function says whether it has ended. */
function startWarm(turn: Turn): () => boolean {
  let finished = false;
  void f.drafts.warm(turn).then(() => (finished = true));
  return () => finished;
}

/** A restarted desk whose warm-up has begun reading the current draft; turns go on by hand. */
async function warmingTheDraft() {
  const id = restartedWithDraft();
  const draftReads = vi.spyOn(f.t.repos.drafts, 'entriesChecked');
  const turns = manualTurns();
  const finished = startWarm(turns.turn);
  await turns.until(() => draftReads.mock.calls.length === 1);
  return { id, draftReads, turns, finished };
}

describe('the drafts warm-up', () => {
  it('reads the ledger and the current draft a slice at a time; the first question then reads nothing again', async () => {
    const id = restartedWithDraft();
    const ledgerReads = vi.spyOn(f.t.repos.listings, 'checkedPages');
    const draftReads = vi.spyOn(f.t.repos.drafts, 'entriesChecked');
    const turns = manualTurns();
    const finished = startWarm(turns.turn);
    await turns.until(finished);

    // Three slices of the ledger and three of the draft, a turn before each part and between slices.
    expect(turns.given()).toBeGreaterThanOrEqual(6);
    expect(ledgerReads).toHaveBeenCalledTimes(1);
    expect(draftReads).toHaveBeenCalledTimes(1);
    const entries = f.drafts.entries(id);
    expect(f.drafts.ledgerView().listings.size).toBe(LEDGER);
    // Read a page at a time, in the order the table is read whole.
    expect([...f.drafts.ledgerView().listings.keys()]).toEqual(f.t.repos.listings.all().map((r) => r.asset_id));
    expect(ledgerReads).toHaveBeenCalledTimes(1);
    expect(draftReads).toHaveBeenCalledTimes(1);
    expect(entries).toHaveLength(CHANGED);
    expect(entries[0]?.change).toMatchObject({ kind: 'listing.edit', asset_id: '1000000', price: 110 });
  });

  it('finishes at once when a question needs the draft before it is through, without reading it twice', async () => {
    const { id, draftReads, turns, finished } = await warmingTheDraft();

    const ws = f.drafts.workingSet(id);
    expect(ws?.entries.size).toBe(CHANGED);
    await turns.until(finished);
    expect(draftReads).toHaveBeenCalledTimes(1);
    // The warm-up did not put a second copy in place of the one the question got.
    expect(f.drafts.workingSet(id)).toBe(ws);
  });

  it('gives up when a draft is written meanwhile (as the apply writes statuses): the next question reads what was written', async () => {
    const { id, draftReads, turns, finished } = await warmingTheDraft();
    f.t.repos.drafts.setStatus(id, ['L:1000000'], 'failed', { kind: 'rejected', status: 400, message: 'price too high' });
    await turns.until(finished);

    expect(f.drafts.entries(id).find((e) => e.target === 'L:1000000')).toMatchObject({ status: 'failed' });
    expect(draftReads).toHaveBeenCalledTimes(2);
  });

  it('gives up on a ledger that changes meanwhile: the next question reads the ledger as it is', async () => {
    restartedWithDraft();
    const ledgerReads = vi.spyOn(f.t.repos.listings, 'checkedPages');
    const turns = manualTurns();
    const finished = startWarm(turns.turn);
    await turns.until(() => ledgerReads.mock.calls.length === 1);
    f.t.repos.listings.upsert(ledgerListing('2000000'));
    await turns.until(finished);

    expect(f.drafts.ledgerView().listings.get('2000000')).toMatchObject({ asset_id: '2000000' });
    expect(f.drafts.ledgerView().listings.size).toBe(LEDGER + 1);
  });

  it('stops when the drafts are closed, without an error', async () => {
    restartedWithDraft();
    const turns = manualTurns();
    let outcome = 'running';
    void f.drafts.warm(turns.turn).then(() => (outcome = 'ended'), () => (outcome = 'failed'));
    await turns.next();
    await turns.next();
    f.restart();
    await turns.until(() => outcome !== 'running');
    expect(outcome).toBe('ended');
  });
});

describe('the drafts list at start', () => {
  it('counts each draft from the store without reading its rows into memory, unless a bulk edit is still to be folded', () => {
    restartedWithDraft();
    const other = f.drafts.create('Small one');
    f.drafts.addChanges(other.id, [{ kind: 'listing.edit', asset_id: '1000001', price: 999 }, { kind: 'listing.edit', asset_id: '1000002', price: 998 }]);
    const expected = f.drafts.list().map((d) => [d.name, d.changeCount, d.failedCount]);
    f.restart();
    const reads = vi.spyOn(f.t.repos.drafts, 'entriesChecked');

    expect(f.drafts.list().map((d) => [d.name, d.changeCount, d.failedCount])).toEqual(expected);
    expect(reads).not.toHaveBeenCalled();

    // A bulk edit not yet folded into rows: only memory knows its rows, so that draft is read.
    const big = f.drafts.list().find((d) => d.name === 'Big repricing')?.id ?? '';
    f.bulk(big, 'listings', { filter: {} }, { op: 'addCents', cents: 1 });
    f.restart();
    const readsAfter = vi.spyOn(f.t.repos.drafts, 'entriesChecked');
    expect(f.drafts.list().find((d) => d.name === 'Big repricing')?.changeCount).toBe(LEDGER);
    expect(readsAfter).toHaveBeenCalledTimes(1);
  });
});
