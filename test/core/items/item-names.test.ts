import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { loadItemFormat } from '../../../src-main/core/items/schema.ts';
import type { ItemFormat } from '../../../src-main/core/items/schema.ts';

const names = createItemNames();

describe('nameFilter: the ledger filter over names', () => {
  it('matches typed text anywhere in the name, whatever its case', () => {
    const byName = names.nameFilter('rocket LAUNCHER');
    expect(byName('205;11;kt-3')).toBe(true);
    expect(byName('5021;6')).toBe(false);
    expect(names.nameFilter('burning')('378;5;u13')).toBe(true);
    expect(names.nameFilter('non-craftable')('5021;6;uncraftable')).toBe(true);
  });

  it('matches an unknown item by its SKU, its only name', () => {
    expect(names.nameFilter('99999')('99999;6')).toBe(true);
  });

  it('describes each SKU once however many rows carry it', () => {
    let loads = 0;
    const counted = createItemNames(() => {
      loads += 1;
      return loadFormatOnce();
    });
    const filter = counted.nameFilter('key');
    const rows = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? '5021;6' : '5002;6'));
    expect(rows.filter(filter)).toHaveLength(5_000);
    expect(loads).toBe(1);
  });
});

describe('loading', () => {
  it('loads nothing until asked, and warm() loads on a later turn of the event loop', async () => {
    let loads = 0;
    const lazy = createItemNames(() => {
      loads += 1;
      return loadFormatOnce();
    });
    const warmed = lazy.warm();
    expect(loads).toBe(0);
    await warmed;
    expect(loads).toBe(1);
    expect(lazy.name('5021;6')).toBe('Mann Co. Supply Crate Key');
    expect(loads).toBe(1);
  });

  it('reads the large item list only for name → SKU, once, and warm({ reverse: true }) does it ahead', async () => {
    const format = loadItemFormat();
    const readItems = vi.spyOn(format.schema, 'loadDefindexes');
    const lazy = createItemNames(() => format);
    lazy.describe('205;11;kt-3');
    lazy.nameFilter('rocket')('205;11;kt-3');
    expect(readItems).not.toHaveBeenCalled();
    await lazy.warm({ reverse: true });
    expect(readItems).toHaveBeenCalledTimes(1);
    expect(lazy.skuForName('Strange Professional Killstreak Rocket Launcher')).toEqual({ ok: true, sku: '205;11;kt-3' });
    expect(readItems).toHaveBeenCalledTimes(1);
  });

  it('warm({ reverse: true }) gives the event loop back between its large parts, as a page asked meanwhile needs', async () => {
    const format = loadItemFormat();
    const lazy = createItemNames(() => format);
    let done = false;
    const warmed = lazy.warm({ reverse: true }).then(() => {
      done = true;
    });
    // What an immediate queued at each turn finds: is the item list read yet, and is warm done?
    const turns: { itemsRead: boolean; done: boolean }[] = [];
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns.push({ itemsRead: format.schema.items !== undefined, done });
    }
    await warmed;
    // The item list, the game file, the parser's tables and the typed names each come in a turn of their own.
    expect(turns.filter((t) => t.itemsRead && !t.done).length).toBeGreaterThanOrEqual(3);
    expect(lazy.nearMiss('Rocket Lanucher')).toEqual({ name: 'Rocket Launcher', sku: '205;6' });
  });
});

describe('naming a SKU loads only what it needs of the package', () => {
  it('names SKUs without loading the name and econ item parsers, which load at the first use of the whole format', () => {
    // A fresh process: this one's module cache already holds the whole package.
    const schemaModule = fileURLToPath(new URL('../../../src-main/core/items/schema.ts', import.meta.url));
    const script = `
      const { createRequire } = await import('node:module');
      const { loadItemFormat } = await import(${JSON.stringify(schemaModule)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('tf2-item-format')).map((f) => f.replace(/.*dist[\\/]/, ''));
      const f = loadItemFormat();
      const named = f.sku.stringify(f.sku.parseSKU('205;11;kt-3'));
      const before = loaded();
      void f.format;
      console.log(JSON.stringify({ named, before, after: loaded() }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr.replace(/.*ExperimentalWarning.*\n?|.*--trace-warnings.*\n?/g, '')).toBe('');
    const seen = JSON.parse(run.stdout) as { named: string; before: string[]; after: string[] };
    expect(seen.named).toBe('Strange Professional Killstreak Rocket Launcher');
    expect(seen.before).toContain('stringify.js');
    expect(seen.before.filter((f) => /^(index|static|parseEconItem|parseString)\.js$/.test(f))).toEqual([]);
    expect(seen.after).toEqual(expect.arrayContaining(['index.js', 'parseEconItem.js', 'parseString.js']));
  });

  it('reads and writes SKUs and names them as the whole format does', () => {
    const f = loadFormatOnce();
    for (const sku of ['5021;6', '205;11;kt-3', '378;5;u13', '15013;15;w3;pk11', '6522;6;td-205', '20003;6;od-6526;oq-6', '5021;6;uncraftable', '200;11;australium;festive']) {
      const attributes = f.sku.parseSKU(sku);
      expect(attributes).toEqual(f.format.parseSKU(sku));
      expect(f.sku.toSKU(attributes)).toBe(f.format.toSKU(attributes));
      expect(f.sku.stringify(attributes)).toBe(f.format.stringify(attributes));
    }
  });
});

let shared: ItemFormat | null = null;
/** The package loaded once for the whole file; the counting tests count calls, not disk reads. */
function loadFormatOnce(): ItemFormat {
  return (shared ??= loadItemFormat());
}
