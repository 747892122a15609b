import { describe, expect, it } from 'vitest';
import { kindOfItem, loadItemKinds } from '../../../src-main/core/items/item-kinds.ts';

describe('item kinds from the game\'s schema', () => {
  it('tells weapons (shields and boots in a weapon slot too), cosmetics, taunts, tools and the rest apart, read as the file streams', async () => {
    const kinds = await loadItemKinds();
    expect(kinds.size).toBeGreaterThan(10_000);
    expect([18, 200, 57, 131, 405, 15013].map((d) => kinds.get(d))).toEqual(['weapon', 'weapon', 'weapon', 'weapon', 'weapon', 'weapon']);
    expect([378, 30998, 143].map((d) => kinds.get(d))).toEqual(['cosmetic', 'cosmetic', 'cosmetic']);
    expect(kinds.get(1172)).toBe('taunt');
    expect([5021, 5027].map((d) => kinds.get(d))).toEqual(['tool', 'tool']);
    expect([5002, 5022].map((d) => kinds.get(d))).toEqual(['other', 'other']);
    // Read once: the second ask is the same map.
    expect(await loadItemKinds()).toBe(kinds);
  });

  it('reads a slot and class as the schema spells them', () => {
    expect(kindOfItem('misc', 'no_entity')).toBe('other');
    expect(kindOfItem(undefined, 'tool')).toBe('tool');
    expect(kindOfItem('action', 'tf_wearable')).toBe('other');
  });
});
