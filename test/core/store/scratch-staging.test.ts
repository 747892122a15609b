import { afterEach, describe, expect, it } from 'vitest';
import type { DraftEntry } from '../../../src-main/core/store/draft-entry.ts';
import { createScratch } from '../../../src-main/core/store/scratch-staging.ts';
import { MAIN, tempStore, type TempStore } from './temp-store.ts';

/**
 * The scratch tables of a CSV job: what a slice staged and saw is found again
 * by later slices, whichever table its key went to; and letting them go never
 * drops them all in one step (the tables of a million rows took some 60 ms,
 * which the heartbeat and the screens waited behind), but a table a turn.
 */

let t: TempStore;
afterEach(() => t.dispose());

const scratchTables = () =>
  (t.store.db.prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table' AND name GLOB 'scratch_*'").all() as { name: string }[]).length;

const entry = (target: string, seq: number): DraftEntry => ({
  target, seq, change: { kind: 'buyOrder.delete', account: MAIN, sku: target.slice(3) }, status: 'pending', error: null, batchId: null, updatedAt: 1,
});

describe('scratch tables', () => {
  it('finds what earlier slices staged and saw, over every table its keys went to', () => {
    t = tempStore();
    const scratch = createScratch(t.store);
    const targets = Array.from({ length: 500 }, (_, i) => `BD:${1000 + i};6`);
    const seen = scratch.seen('sku');
    targets.forEach((target, i) => {
      scratch.staging.set(target, entry(target, i));
      expect(seen(target, i + 2)).toBeNull();
    });
    scratch.flush();
    scratch.staging.warm?.(targets.slice(0, 250));
    expect(targets.map((target) => scratch.staging.get(target)?.seq)).toEqual(targets.map((_, i) => i));
    expect(scratch.staging.has('BD:nothing;6')).toBe(false);
    expect(targets.map((target) => seen(target, 9_999))).toEqual(targets.map((_, i) => i + 2));
    expect([...scratch.staging.values()].map((e) => e.seq).sort((a, b) => a - b)).toEqual(targets.map((_, i) => i));
    scratch.dispose();
  });

  it('gives back a written entry exactly as it was staged, whatever its note holds', () => {
    t = tempStore();
    const scratch = createScratch(t.store);
    const noted: DraftEntry = {
      ...entry('B:7;6', 3),
      change: { kind: 'buyOrder.create', account: '1', sku: '7;6', price: 5, quantity: 1, user_note: 'a "quoted", \\ note\n\té 😀 \ud800' },
    };
    scratch.staging.set(noted.target, noted);
    scratch.flush();
    expect(scratch.staging.get(noted.target)).toEqual(noted);
    expect([...scratch.staging.values()]).toEqual([noted]);
    scratch.dispose();
  });

  it('keeps the keys of each kind apart, before and after they are written', () => {
    t = tempStore();
    const scratch = createScratch(t.store);
    const asset = scratch.seen('asset');
    const listing = scratch.seen('listing');
    expect(asset('1:2', 2)).toBeNull();
    expect(listing('1:2', 3)).toBeNull();
    expect([asset('1:2', 5), listing('1:2', 5)]).toEqual([2, 3]);
    scratch.flush();
    expect([asset('1:2', 6), listing('1:2', 6), asset('1', 6), scratch.seen('sku')('1:2', 6)]).toEqual([2, 3, null, null]);
    scratch.dispose();
  });

  it('drops its tables a pair a turn, never all in the step that lets them go', async () => {
    t = tempStore();
    const turns: (() => void)[] = [];
    const scratch = createScratch(t.store, () => new Promise<void>((resolve) => turns.push(resolve)));
    const all = scratchTables();
    expect(all).toBeGreaterThan(2);
    scratch.dispose();
    const counts = [scratchTables()];
    while (turns.length > 0) {
      turns.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
      counts.push(scratchTables());
    }
    // One staged and one seen table a step: the first pair as they are let go, each next one after a turn.
    expect(counts).toEqual(Array.from({ length: all / 2 }, (_, i) => all - 2 * (i + 1)).concat(0));
  });
});
