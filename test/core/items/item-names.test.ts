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
});

let shared: ItemFormat | null = null;
/** The package loaded once for the whole file; the counting tests count calls, not disk reads. */
function loadFormatOnce(): ItemFormat {
  return (shared ??= loadItemFormat());
}
