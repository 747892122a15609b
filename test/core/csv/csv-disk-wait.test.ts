import type * as nodeFs from 'node:fs';
import { statSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPragma } from '../../../src-main/core/store/db.ts';
import { csvFixture, csvOf, preview, type CsvFixture } from './csv-support.ts';

/**
 * A CSV import's commit writes a slice at a time, each slice the trader's
 * data: its commits do not wait for the disk one by one (two syncs a slice,
 * 1,600 for 200,000 rows), and the import waits for it once, after its last
 * slice, by syncing the write-ahead log that holds them all.
 */

const synced = vi.hoisted(() => ({ inodes: [] as number[] }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof nodeFs>();
  const fsyncSync = (fd: number) => {
    synced.inodes.push(fs.fstatSync(fd).ino);
    fs.fsyncSync(fd);
  };
  return { ...fs, default: { ...fs, fsyncSync }, fsyncSync };
});

let f: CsvFixture | undefined;
afterEach(() => {
  f?.dispose();
  f = undefined;
});

describe('a CSV import committed a slice at a time', () => {
  it('commits its slices without waiting for the disk, then syncs the write-ahead log once, and leaves the store at FULL', async () => {
    f = csvFixture();
    const fx = f;
    // About 24 kB: several slices of 8 kB.
    const rows = Array.from({ length: 600 }, (_, i) => `${9000 + i},lst_${i},${100 + i},a note to make the row longer,`);
    const p = await preview(fx, 'listings', csvOf('asset_id,listing_id,price_cents,user_note,account', ...rows));
    const upsertMany = fx.t.repos.listings.upsertMany.bind(fx.t.repos.listings);
    const seen: { synchronous: string | number; syncsBefore: number }[] = [];
    fx.t.repos.listings.upsertMany = (listings) => {
      seen.push({ synchronous: readPragma(fx.t.store, 'synchronous'), syncsBefore: synced.inodes.length });
      return upsertMany(listings);
    };
    synced.inodes.length = 0;

    expect(await fx.csv.commitImport(p.token)).toMatchObject({ imported: 600, errorCount: 0 });

    expect(seen.length).toBeGreaterThan(2);
    // synchronous = NORMAL (1) for every slice, and no sync of the log among them.
    expect(seen).toEqual(seen.map(() => ({ synchronous: 1, syncsBefore: 0 })));
    expect(synced.inodes).toEqual([statSync(`${fx.t.path}-wal`).ino]);
    expect(readPragma(fx.t.store, 'synchronous')).toBe(2);
    expect(fx.t.repos.listings.count()).toBe(600);
  });
});
