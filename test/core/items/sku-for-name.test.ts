import { describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';

const names = createItemNames();

describe('skuForName: CSV names back to SKUs', () => {
  it.each([
    // tf2-item-format's own "Name to SKU" tests
    ["Non-Craftable Unusual Taunt: The Trackman's Touchdown Unusualifier", '9258;5;uncraftable;td-30917'],
    ['Pyroland Nightmare Calamitous Cauldron', '31146;5;u159'],
    ['Strange Professional Killstreak Golden Frying Pan', '1071;11;kt-3'],
    ['Non-Craftable Professional Killstreak Sniper Rifle Kit', '6526;6;uncraftable;kt-3;td-201'],
    ['Strange Professional Killstreak Australium Medi Gun', '211;11;australium;kt-3'],
    // the Python tf2schema package's name → SKU tests
    ["Snowblinded Fat Man's Field Cap", '30911;5;u144'],
    ['Burning Flames Human Cannonball', '817;5;u13'],
    ['Iron Wood Mk.II Shotgun (Field-Tested)', '199;15;w3;pk120'],
    ['Strange Unique Ambassador', '61;6;strange'],
    ['Name Tag', '5020;6'],
    // keys, metal, killstreak tiers, festivized, uncraftable
    ['Mann Co. Supply Crate Key', '5021;6'],
    ['Refined Metal', '5002;6'],
    ['Killstreak Rocket Launcher', '205;6;kt-1'],
    ['Strange Specialized Killstreak Rocket Launcher', '205;11;kt-2'],
    ['Strange Festivized Professional Killstreak Australium Rocket Launcher', '205;11;australium;kt-3;festive'],
    ['Non-Craftable Mann Co. Supply Crate Key', '5021;6;uncraftable'],
  ])('"%s" is %s', (name, sku) => {
    expect(names.skuForName(name)).toEqual({ ok: true, sku });
  });

  it('gives a weapon skin its own defindex, as TF2Autobot does (its pistol skins map paint kit 0 to 15013)', () => {
    expect(names.skuForName('Red Rock Roscoe Pistol (Field-Tested)')).toEqual({ ok: true, sku: '15013;15;w3;pk0' });
    expect(names.skuForName('Strange Professional Killstreak Red Rock Roscoe Pistol (Minimal Wear)'))
      .toEqual({ ok: true, sku: '15013;11;w2;pk0;kt-3' });
  });

  it('accepts the words in another order, a leading "The", extra spaces and curly apostrophes', () => {
    expect(names.skuForName('Strange Professional Killstreak Festivized Australium Medi Gun'))
      .toEqual({ ok: true, sku: '211;11;australium;kt-3;festive' });
    expect(names.skuForName('The Team Captain')).toEqual({ ok: true, sku: '378;6' });
    expect(names.skuForName('  Snowblinded   Fat Man’s Field Cap ')).toEqual({ ok: true, sku: '30911;5;u144' });
  });

  it('is the inverse of describe for the names it produces', () => {
    for (const sku of ['5021;6', '378;5;u13', '205;11;kt-2', '940;6;uncraftable', '15013;15;w1;pk0', '30911;5;u13;strange']) {
      const resolved = names.skuForName(names.name(sku));
      expect(resolved.ok && names.name(resolved.sku)).toBe(names.name(sku));
    }
  });
});

describe('skuForName: names it cannot resolve say why', () => {
  it('refuses an empty cell', () => {
    expect(names.skuForName('   ')).toMatchObject({ ok: false, reason: 'empty', message: 'No item name was given.' });
  });

  it.each([
    ['Gold Frying Pan'],
    ['Team Captain (Burning Flames)'],
    ['Burning Flamez Team Captain'],
  ])('"%s" is no item of the schema', (name) => {
    const result = names.skuForName(name);
    expect(result).toMatchObject({ ok: false, reason: 'no_such_item', candidates: [] });
    expect(result.ok || result.message).toContain(`"${name}"`);
  });

  it('refuses a name it could read only in part, naming the nearest item', () => {
    const result = names.skuForName('Strange Rocket Launcher (Field-Tested) Extra');
    expect(result.ok).toBe(false);
  });

  it('is ambiguous when several of the trader\'s own items carry the name, and lists them', () => {
    const held = names.knownNames(['209;15;w3;pk0', '15013;15;w3;pk0', '5021;6']);
    const result = names.skuForName('Red Rock Roscoe Pistol (Field-Tested)', held);
    expect(result).toEqual({
      ok: false,
      reason: 'ambiguous',
      message: '"Red Rock Roscoe Pistol (Field-Tested)" matches 2 of your items (209;15;w3;pk0, 15013;15;w3;pk0): give the SKU instead.',
      candidates: ['209;15;w3;pk0', '15013;15;w3;pk0'],
    });
  });

  it('prefers the trader\'s own SKU for a name, in any case', () => {
    const held = names.knownNames(['209;15;w3;pk0', '5021;6']);
    expect(names.skuForName('red rock roscoe pistol (field-tested)', held)).toEqual({ ok: true, sku: '209;15;w3;pk0' });
    expect(names.skuForName('mann co. supply crate key', held)).toEqual({ ok: true, sku: '5021;6' });
  });
});
