import { describe, expect, it } from 'vitest';
import type { ChangeStatus, DraftEntry } from '../../../src-main/core/drafts/change.ts';
import { createLedgerQueries } from '../../../src-main/core/drafts/ledger-query.ts';
import type { LedgerView } from '../../../src-main/core/drafts/ledger-view.ts';
import { applyPatch, patchLayer, type PatchBody } from '../../../src-main/core/drafts/patch.ts';
import { patchEffect } from '../../../src-main/core/drafts/patch-effect.ts';
import { createEntryIndex, type WorkingSet } from '../../../src-main/core/drafts/working-set.ts';
import type { ListingRow } from '../../../src-main/core/store/listings-repo.ts';

/**
 * Random drafts of listings, each with one random patch. What the patch's
 * effect says it does to the counts must be what applying it does, and the
 * patch laid over the entries must read as applied, in every state and kind
 * of entry, including targets no bulk plan picks (a deleted row, a row with
 * an unknown listing ID, IDs the ledger lacks, entries newer than the patch).
 */

const ROWS = 30;
const STATUSES: ChangeStatus[] = ['pending', 'failed', 'unknown', 'queued', 'sent', 'done', 'dropped'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

function ledgerOf(rnd: () => number): LedgerView {
  const listings = new Map<string, ListingRow>();
  for (let i = 1; i <= ROWS; i++) {
    const id = String(1000 + i);
    listings.set(id, {
      asset_id: id, listing_id: rnd() < 0.15 ? null : `L${id}`, id_unknown: false, sku: '5021;6', price: 100 + i, promoted: 0,
      game: '440', user_note: '', account: 'A', state: 'active', state_reason: null, trade_id: null, updated_at: 1,
    });
  }
  return { version: 1, listings, listingsById: new Map(), buyOrders: new Map() };
}

/** Entries of every kind and status, over ledger rows and over assets the ledger lacks (creates). */
function entriesOf(rnd: () => number): DraftEntry[] {
  const out: DraftEntry[] = [];
  let seq = 1;
  const status = () => STATUSES[Math.floor(rnd() * STATUSES.length)] as ChangeStatus;
  const entry = (target: string, change: DraftEntry['change']): DraftEntry =>
    ({ target, seq: seq++, change, status: status(), error: null, batchId: null, updatedAt: 5 });
  for (let i = 1; i <= ROWS + 6; i++) {
    const id = String(1000 + i);
    const r = rnd();
    if (r < 0.35) out.push(entry(`L:${id}`, { kind: 'listing.edit', account: 'A', asset_id: id, listing_id: `L${id}`, price: 7 + i, promoted: 1 }));
    else if (r < 0.5) out.push(entry(`L:${id}`, { kind: 'listing.create', account: 'A', asset_id: id, price: 9 + i, promoted: 0, game: '440' }));
    if (rnd() < 0.3) out.push(entry(`LD:${id}`, { kind: 'listing.delete', account: 'A', asset_id: id }));
  }
  return out;
}

function patchOf(rnd: () => number): { seq: number; body: PatchBody } {
  const ids: string[] = [];
  for (let i = 1; i <= ROWS + 8; i++) if (rnd() < 0.6) ids.push(String(1000 + i));
  const perRow = rnd() < 0.5;
  return {
    // Sometimes older than entries it meets: those are left as they are, as on a replay after a crash.
    seq: rnd() < 0.2 ? 30 : 1_000,
    body: { domain: 'listings', ids, set: perRow ? { promoted: 1 } : { price: 4_242, user_note: 'bulk' }, ...(perRow ? { prices: ids.map((_, i) => 200 + i) } : {}) },
  };
}

function tally(ws: WorkingSet, ledger: LedgerView) {
  // A fresh query each time: nothing cached from the other read.
  const queries = createLedgerQueries({ ledger: () => ledger, draftVersion: () => 1, now: () => 9 });
  const { total, all, changed } = queries.page(ws, 'listings', {}, null, 0, 0);
  return { total, all, changed, keys: queries.keys(ws, 'listings', { filter: {} }) };
}

function statusCounts(ws: WorkingSet): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of ws.entries.values()) if (e.status !== 'dropped') counts[e.status] = (counts[e.status] ?? 0) + 1;
  return counts;
}

const withoutZeros = (r: Record<string, number>) => Object.fromEntries(Object.entries(r).filter(([, n]) => n !== 0));

describe('a bulk patch over a draft', () => {
  it('changes the counts by what its effect says, and reads through as applied, in 300 random drafts', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      const ledger = ledgerOf(rnd);
      const entries = entriesOf(rnd);
      const { seq, body } = patchOf(rnd);
      const before: WorkingSet = { draftId: 'd', entries: createEntryIndex(entries), nextSeq: seq };
      const applied: WorkingSet = { draftId: 'd', entries: createEntryIndex(entries), nextSeq: seq + 1 };
      applyPatch(applied, ledger, seq, body, 77);

      const effect = patchEffect(patchLayer(ledger, seq, body, 0), before, ledger, seq);
      const [was, is] = [tally(before, ledger), tally(applied, ledger)];
      expect(effect.counts.changedRows, `seed ${seed}`).toBe(is.changed - was.changed);
      // The rows a patch touches were rows already: the table keeps its rows, in its order.
      expect(is.keys, `seed ${seed}`).toEqual(was.keys);
      expect(is.all).toBe(was.all);
      const moved = Object.fromEntries(Object.keys({ ...statusCounts(before), ...statusCounts(applied) })
        .map((k) => [k, (statusCounts(applied)[k] ?? 0) - (statusCounts(before)[k] ?? 0)]));
      expect(withoutZeros(effect.counts.statuses), `seed ${seed}`).toEqual(withoutZeros(moved));

      // Laid instead of applied: each target reads as applied, and reading the slot in full writes the patch in.
      const laid: WorkingSet = { draftId: 'd', entries: createEntryIndex(entries), nextSeq: seq + 1 };
      laid.entries.lay(patchLayer(ledger, seq, body, 77, effect.positions));
      // Part of it written in, as the idle steps do: what is read through it does not change.
      const some = Math.floor(rnd() * body.ids.length);
      expect(laid.entries.writeIn(some)).toBe(some);
      for (const id of body.ids) expect(laid.entries.peek('L', id), `seed ${seed}, ${id}`).toEqual(applied.entries.get(`L:${id}`));
      expect(laid.entries.laid('L')).toHaveLength(body.ids.length > 0 ? 1 : 0);
      expect([...laid.entries.slot('L').entries()], `seed ${seed}`).toEqual([...applied.entries.slot('L').entries()]);
      expect(laid.entries.laid('L')).toHaveLength(0);
    }
  });
  it('writes a laid patch in before a write to its slot, so the write lands on top', () => {
    const rnd = random(7);
    const ledger = ledgerOf(rnd);
    const ws: WorkingSet = { draftId: 'd', entries: createEntryIndex(), nextSeq: 10 };
    ws.entries.lay(patchLayer(ledger, 5, { domain: 'listings', ids: ['1001', '1002'], set: { price: 300 } }, 77));
    const mine: DraftEntry = {
      target: 'L:1001', seq: 6, status: 'pending', error: null, batchId: null, updatedAt: 78,
      change: { kind: 'listing.edit', account: 'A', asset_id: '1001', listing_id: 'L1001', price: 1, promoted: 0 },
    };
    ws.entries.set(mine);
    expect(ws.entries.get('L:1001')).toBe(mine);
    expect(ws.entries.get('L:1002')?.change).toMatchObject({ price: 300 });
  });
});
