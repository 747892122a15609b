import { afterEach, describe, expect, it } from 'vitest';
import { createSpool } from '../../../src-main/core/store/csv-spool.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The text a CSV preview keeps for its commit: given back part by part in the
 * order it came, whatever order the parts' deflating ended in, and kept
 * deflated, so the temporary file the system writes out behind the profile's
 * commits holds several times less than the text.
 */

let t: TempStore;
afterEach(() => t.dispose());

const csvText = (rows: number, from = 0) =>
  Array.from({ length: rows }, (_, i) => `AK-47 | Redline (Field-Tested),${(12.5 + ((from + i) % 97)).toFixed(2)},${1 + ((from + i) % 5)}\n`).join('');

/** The spool tables of the store's temporary database, with what their rows hold. */
const kept = () => {
  const tables = (t.store.db.prepare("SELECT name FROM temp.sqlite_master WHERE type = 'table' AND name LIKE 'csv_spool_%'").all() as { name: string }[]).map((r) => r.name);
  return tables.map((name) => t.store.db.prepare(`SELECT count(*) AS parts, sum(length(part)) AS bytes, min(typeof(part)) AS type FROM temp.${name}`).get() as { parts: number; bytes: number; type: string });
};

async function readAll(parts: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('the CSV spool', () => {
  it('gives the parts back in the order they were appended, though a later, smaller one is deflated first', async () => {
    t = tempStore();
    const spool = createSpool(t.store);
    const parts = [csvText(20_000), 'Ünïcödé ✓ name,1.00,1\n', csvText(3, 5), csvText(8_000, 11)];
    await Promise.all(parts.map((part) => spool.append(part)));
    expect(await readAll(spool.parts())).toEqual(parts);
    // Read again, as a commit after a failed one would.
    expect((await readAll(spool.parts())).join('')).toBe(parts.join(''));
    spool.dispose();
  });

  it('keeps the text deflated: a CSV takes several times fewer bytes than its text', async () => {
    t = tempStore();
    const spool = createSpool(t.store);
    const text = csvText(40_000);
    for (let at = 0; at < text.length; at += 300_000) await spool.append(text.slice(at, at + 300_000));
    const [table] = kept();
    expect(table?.type).toBe('blob');
    expect(table?.parts).toBe(Math.ceil(text.length / 300_000));
    expect(table?.bytes).toBeLessThan(text.length / 4);
    expect((await readAll(spool.parts())).join('')).toBe(text);
    spool.dispose();
  });

  it('drops its table when let go, and a part still deflating then is not kept', async () => {
    t = tempStore();
    const spool = createSpool(t.store);
    await spool.append(csvText(10));
    const late = spool.append(csvText(50_000));
    spool.dispose();
    await late;
    expect(kept()).toEqual([]);
    expect(await readAll(spool.parts())).toEqual([]);
    spool.dispose();
  });
});
