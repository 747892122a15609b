import { beforeAll, describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import type { VariantPart } from '../../../src-main/core/items/index.ts';

const names = createItemNames();
beforeAll(() => names.warm({ reverse: true }), 60_000);

const groupOf = (sku: string, part: VariantPart) => names.variants(sku)?.groups.find((g) => g.part === part);
const option = (sku: string, part: VariantPart, label: string) => groupOf(sku, part)?.options.find((o) => o.label === label);

describe('variants: what else an item comes as, each with its SKU', () => {
  it('offers a hat its qualities and its effects (an effect makes it Unusual)', () => {
    expect(names.variants('378;6')?.groups.map((g) => g.part)).toEqual(['quality', 'effect', 'craftable']);
    expect(groupOf('378;6', 'effect')?.options[0]).toEqual({ label: 'None', sku: '378;6', chosen: true });
    expect(option('378;6', 'effect', 'Burning Flames')).toEqual({ label: 'Burning Flames', sku: '378;5;u13', chosen: false });
    expect(option('378;11', 'effect', 'Burning Flames')?.sku).toBe('378;5;u13;strange');
    expect(option('378;5', 'effect', 'Any effect')).toEqual({ label: 'Any effect', sku: '378;5', chosen: true });
    expect(option('378;6', 'quality', 'Unique')).toEqual({ label: 'Unique', sku: '378;6', chosen: true });
    expect(option('378;6', 'quality', 'Strange')?.sku).toBe('378;11');
    expect(option('378;6', 'quality', 'Unusual')?.sku).toBe('378;5');
    expect(option('378;5', 'effect', 'Burning Flames')).toEqual({ label: 'Burning Flames', sku: '378;5;u13', chosen: false });
    expect(option('378;5;u13', 'effect', 'Burning Flames')?.chosen).toBe(true);
    expect(option('378;5;u13', 'strange', 'Yes')?.sku).toBe('378;5;u13;strange');
    expect(option('378;6', 'craftable', 'Non-Craftable')?.sku).toBe('378;6;uncraftable');
    // A hat's effects, not a weapon's or a taunt's.
    const effects = groupOf('378;5', 'effect')?.options.map((o) => o.label) ?? [];
    expect(effects).toContain('Sunbeams');
    expect(effects).not.toContain('Hot');
    expect(effects).not.toContain('Showstopper');
  });

  it('offers a weapon its killstreak tiers, Australium and Festivized where they exist', () => {
    expect(names.variants('205;11;kt-3')?.groups.map((g) => g.part)).toEqual(['quality', 'killstreak', 'australium', 'festivized', 'craftable']);
    expect(groupOf('205;6', 'killstreak')?.options.map((o) => [o.label, o.sku])).toEqual([
      ['None', '205;6'], ['Killstreak', '205;6;kt-1'], ['Specialized', '205;6;kt-2'], ['Professional', '205;6;kt-3'],
    ]);
    // Every Australium is Strange.
    expect(option('205;6', 'australium', 'Yes')?.sku).toBe('205;11;australium');
    expect(option('205;6', 'festivized', 'Yes')?.sku).toBe('205;6;festive');
    expect(groupOf('37;6', 'australium')).toBeUndefined();
    expect(groupOf('5021;6', 'killstreak')).toBeUndefined();
  });

  it('offers a taunt its own effects, a skin its wears, every SKU one the schema names', () => {
    expect(option('1172;5', 'effect', 'Showstopper (#3001)')?.sku).toBe('1172;5;u3001');
    expect(groupOf('15013;15;w3;pk0', 'wear')?.options.map((o) => o.sku)).toEqual([1, 2, 3, 4, 5].map((w) => `15013;15;w${w};pk0`));
    for (const sku of ['378;5;u13', '205;11;kt-3', '15013;15;w3;pk0']) {
      for (const g of names.variants(sku)?.groups ?? []) {
        for (const o of g.options.slice(0, 20)) expect(names.describe(o.sku).known, `${g.part} ${o.label} ${o.sku}`).toBe(true);
        expect(g.options.filter((o) => o.chosen), `${sku} ${g.part}`).toHaveLength(1);
      }
    }
  });

  it('offers nothing for a SKU the schema cannot name', () => {
    expect(names.variants('999999;6')).toBeNull();
  });
});
