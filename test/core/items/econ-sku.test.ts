import { describe, expect, it } from 'vitest';
import type { EconItem } from 'tf2-item-format';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import { econDescriptionOf } from '../../../src-main/sandbox/steam-econ.ts';

/**
 * Steam's description of an item back to its SKU: every kind of name the
 * desk renders, a killstreak kit (whose target is another item), and an item
 * whose description has no wiki link (the name decides then).
 */
const names = createItemNames();

const SKUS = [
  '5021;6', '5021;6;uncraftable', '378;5;u13', '378;5;u13;strange', '378;11', '30469;1', '126;3', '287;13', '159;14',
  '205;11;australium;kt-3;festive', '205;6;kt-1', '61;11;kt-2;festive', '15013;15;w3;pk0', '15013;5;u701;w1;pk0;strange',
  '15004;11;w2;pk10;kt-3', '16102;15;w1;pk102', '17205;15;w4;pk205', '200;15;w2;pk201', '1157;5;u3009',
  // A kit names the weapon it is for: the SKU carries it (td-).
  '6526;6;uncraftable;kt-3;td-201',
];

const econOf = (sku: string, withLink = true): EconItem => {
  const { actions, ...rest } = econDescriptionOf(sku);
  return { ...rest, ...(withLink ? { actions } : {}), assetid: '1' } as unknown as EconItem;
};

describe('SKU of a Steam econ item', () => {
  it.each(SKUS)('reads %s back from its description', (sku) => {
    expect(names.skuOfEcon(econOf(sku))).toBe(sku);
  });

  it('reads the defindex from the name when the description has no wiki link', () => {
    for (const sku of ['5021;6', '378;5;u13', '205;11;australium;kt-3;festive']) expect(names.skuOfEcon(econOf(sku, false))).toBe(sku);
  });

  it('gives null for a description that names no item', () => {
    const econ = { ...econOf('5021;6', false), name: 'Nothing at all', market_name: 'Nothing at all', market_hash_name: 'Nothing at all' };
    expect(names.skuOfEcon(econ as EconItem)).toBeNull();
  });
});
