import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DraftEntry } from '../../../src-main/core/store/draft-entry.ts';
import { createScratch } from '../../../src-main/core/store/scratch-staging.ts';
import { MAIN, tempStore, type TempStore } from './temp-store.ts';

/**
 * The scratch tables of a CSV job: what a slice staged and saw is found again
 * by later slices; and they are a database of the job's own, let go by
 * detaching it a turn later, never by dropping its tables (a million rows'
 * took some 60 ms, and left what they wrote in the store's temporary file,
 * which the system wrote out behind the profile's next commit).
 */

let t: TempStore;
afterEach(() => t.dispose());

/** The databases the store's connection has open besides its own and its temporary one. */
const attached = () =>
  (t.store.db.prepare('PRAGMA database_list').all() as { name: string; file: string }[]).filter((d) => d.name !== 'main' && d.name !== 'temp');

const entry = (target: string, seq: number): DraftEntry => ({
  target, seq, change: { kind: 'buyOrder.delete', account: MAIN, sku: target.slice(3) }, status: 'pending', error: null, batchId: null, updatedAt: 1,
});

describe('scratch tables', () => {
  it('finds what earlier slices staged and saw', () => {
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

  it('keeps its tables in a database of its own, outside the profile and its temporary tables', () => {
    t = tempStore();
    const scratch = createScratch(t.store);
    scratch.staging.set('B:7;6', entry('B:7;6', 1));
    scratch.flush();
    const [own] = attached();
    expect(own?.name).toMatch(/^scratch_[0-9a-f]{32}$/);
    expect(own?.file).toBe(`${t.path}.scratch-${own?.name.slice('scratch_'.length)}`);
    expect(existsSync(own?.file ?? '')).toBe(true);
    expect(t.store.db.prepare("SELECT count(*) AS n FROM sqlite_temp_master WHERE type = 'table'").get()).toEqual({ n: 0 });
    const second = createScratch(t.store);
    expect(attached()).toHaveLength(2);
    second.seen('sku')('7;6', 2);
    second.flush();
    expect(scratch.seen('sku')('7;6', 3)).toBeNull();
    scratch.dispose();
    second.dispose();
  });

  it('detaches its database a turn after it is let go, in one step however much it holds', async () => {
    t = tempStore();
    const turns: (() => void)[] = [];
    const scratch = createScratch(t.store, () => new Promise<void>((resolve) => turns.push(resolve)));
    scratch.staging.set('B:7;6', entry('B:7;6', 1));
    scratch.flush();
    // Let go inside a transaction, where SQLite refuses to detach: the detach waits for the turn.
    t.store.transaction(() => scratch.dispose());
    expect(attached()).toHaveLength(1);
    expect(turns).toHaveLength(1);
    const [{ file } = { file: '' }] = attached();
    // The file is deleted once SQLite has let go of it, never while it holds it (then the close would free its blocks).
    const fs = process.getBuiltinModule('node:fs');
    const attachedAtUnlink: number[] = [];
    const unlink = vi.spyOn(fs, 'unlink').mockImplementation(((path: string, done: (error: Error | null) => void) => {
      attachedAtUnlink.push(attached().length);
      unlink.mockRestore();
      fs.unlink(path, done);
    }) as typeof fs.unlink);
    turns.shift()?.();
    await vi.waitUntil(() => !existsSync(file));
    expect(attached()).toEqual([]);
    expect(attachedAtUnlink).toEqual([0]);
    expect(turns).toHaveLength(0);
  });

  it('removes the scratch files a crash left beside the profile when the store opens, and nothing else', () => {
    t = tempStore();
    const scratch = createScratch(t.store);
    scratch.staging.set('B:7;6', entry('B:7;6', 1));
    scratch.flush();
    const [{ file } = { file: '' }] = attached();
    // A crash: the file stays, its store never let it go.
    t.store.close();
    const others = [join(t.dir, 'other.sqlite.scratch-1'), join(t.dir, 'profile.sqlite.bak'), join(t.dir, 'notes.txt')];
    for (const other of others) writeFileSync(other, 'kept');
    writeFileSync(`${t.path}.scratch-2-journal`, 'left');
    t.reopen();
    return vi.waitUntil(() => !existsSync(file) && !existsSync(`${t.path}.scratch-2-journal`)).then(() => {
      expect(others.filter((other) => existsSync(other))).toEqual(others);
      expect(existsSync(t.path)).toBe(true);
    });
  });
});
