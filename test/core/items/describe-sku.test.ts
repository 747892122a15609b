import { describe, expect, it } from 'vitest';
import { createItemNames } from '../../../src-main/core/items/index.ts';
import type { KnownItem } from '../../../src-main/core/items/index.ts';

const names = createItemNames();

function known(sku: string): KnownItem {
  const item = names.describe(sku);
  if (!item.known) throw new Error(`${sku} should be known`);
  return item;
}

/**
 * SKUs and the names backpack.tf shows for them, each from a public source that
 * pins it against backpack.tf (not from memory):
 * - TFIF: tf2-item-format's own tests (test/formats.test.js, "SKU to Name");
 * - PY: the Python `tf2schema` package's tests (DATA_SKUS_NAMES);
 * - BPTF: backpack.tf stats URLs and item-name lists quoted in public trading
 *   bots ("/stats/Unique/Team%20Captain", "Strange Specialized Killstreak Rocket
 *   Launcher", "Strange Festivized Professional Killstreak Australium Rocket Launcher").
 */
const BACKPACK_TF_NAMES: readonly (readonly [sku: string, name: string, source: string])[] = [
  // keys and metal
  ['5021;6', 'Mann Co. Supply Crate Key', 'BPTF'],
  ['5002;6', 'Refined Metal', 'BPTF'],
  ['5020;6', 'Name Tag', 'PY'],
  // unique (no "The", as backpack.tf writes it)
  ['378;6', 'Team Captain', 'BPTF'],
  // other qualities
  ['30881;11', 'Strange Croaking Hazard', 'PY'],
  ['31374;3', 'Vintage Hazard Handler', 'PY'],
  ['5009;3', 'Vintage Class Token - Pyro', 'PY'],
  ['61;6;strange', 'Strange Unique Ambassador', 'PY'],
  // unusual with effect
  ['30911;5;u144', "Snowblinded Fat Man's Field Cap", 'PY'],
  ['817;5;u13', 'Burning Flames Human Cannonball', 'PY'],
  ['382;5;u35', 'Smoking Big Country', 'PY'],
  ['31146;5;u159', 'Pyroland Nightmare Calamitous Cauldron', 'TFIF'],
  ['160;3;u4', 'Vintage Community Sparkle Lugermorph', 'PY'],
  ['267;5', 'Unusual Haunted Metal Scrap', 'PY'],
  ['30609;5;u3108', 'Festivized Formation Taunt: The Killer Solo', 'PY'],
  // killstreak, every tier
  ['205;6;kt-1', 'Killstreak Rocket Launcher', 'BPTF'],
  ['205;11;kt-2', 'Strange Specialized Killstreak Rocket Launcher', 'BPTF'],
  ['1071;11;kt-3', 'Strange Professional Killstreak Golden Frying Pan', 'TFIF'],
  ['792;11;kt-3', 'Strange Professional Killstreak Silver Botkiller Sniper Rifle Mk.I', 'TFIF'],
  // australium and festivized
  ['205;11;australium', 'Strange Australium Rocket Launcher', 'BPTF'],
  ['211;11;australium;kt-3', 'Strange Professional Killstreak Australium Medi Gun', 'TFIF'],
  ['211;11;australium;kt-3;festive', 'Strange Festivized Professional Killstreak Australium Medi Gun', 'TFIF'],
  ['205;11;australium;kt-3;festive', 'Strange Festivized Professional Killstreak Australium Rocket Launcher', 'BPTF'],
  ['205;11;festive', 'Strange Festivized Rocket Launcher', 'BPTF'],
  // uncraftable
  ['6526;6;uncraftable;kt-3;td-201', 'Non-Craftable Professional Killstreak Sniper Rifle Kit', 'TFIF'],
  ['9258;5;uncraftable;td-30917', "Non-Craftable Unusual Taunt: The Trackman's Touchdown Unusualifier", 'TFIF'],
  ['9258;5;uncraftable;td-31154', 'Non-Craftable Unusual Taunt: Time Out Therapy Unusualifier', 'PY'],
  // decorated with wear
  ['199;15;w3;pk120', 'Iron Wood Mk.II Shotgun (Field-Tested)', 'PY'],
];

describe('describe: SKU → the name backpack.tf shows', () => {
  it.each(BACKPACK_TF_NAMES)('%s is "%s" (%s)', (sku, name) => {
    expect(names.describe(sku)).toMatchObject({ known: true, sku, name });
  });

  it('reads parts in any order and with or without the hyphen, as writers differ', () => {
    expect(names.name('15013;11;kt-3;w2;pk0')).toBe('Strange Professional Killstreak Red Rock Roscoe Pistol (Minimal Wear)');
    expect(names.name('15013;11;w2;pk0;kt3')).toBe('Strange Professional Killstreak Red Rock Roscoe Pistol (Minimal Wear)');
  });
});

describe('describe: the parts a screen shows apart', () => {
  it('gives the quality with the colour traders know it by', () => {
    expect(known('5021;6').quality).toEqual({ id: 6, name: 'Unique', color: '#FFD700' });
    expect(known('205;11').quality).toEqual({ id: 11, name: 'Strange', color: '#CF6A32' });
    expect(known('378;5;u13').quality).toEqual({ id: 5, name: 'Unusual', color: '#8650AC' });
    expect(known('378;13').quality).toEqual({ id: 13, name: 'Haunted', color: '#38F3AB' });
    expect(known('378;12').quality).toEqual({ id: 12, name: 'Completed', color: null });
  });

  it('names the unusual effect apart from the item', () => {
    expect(known('378;5;u13')).toMatchObject({ name: 'Burning Flames Team Captain', item: 'Team Captain', effect: { id: 13, name: 'Burning Flames' } });
  });

  it('names each killstreak tier (SKUs carry no sheen or killstreaker, so there is none to show)', () => {
    expect(known('205;6;kt-1').killstreak).toEqual({ id: 1, name: 'Killstreak' });
    expect(known('205;6;kt-2').killstreak).toEqual({ id: 2, name: 'Specialized Killstreak' });
    expect(known('205;6;kt-3').killstreak).toEqual({ id: 3, name: 'Professional Killstreak' });
    expect(known('205;6').killstreak).toBeNull();
  });

  it('flags australium, festivized, uncraftable and a second Strange quality', () => {
    expect(known('205;11;australium;kt-3;festive')).toMatchObject({ australium: true, festivized: true, craftable: true, strange: false });
    expect(known('5021;6;uncraftable')).toMatchObject({ name: 'Non-Craftable Mann Co. Supply Crate Key', craftable: false });
    expect(known('30911;5;u13;strange')).toMatchObject({ strange: true, quality: { id: 5 }, effect: { id: 13 } });
  });

  it('gives a decorated weapon its paint kit and wear', () => {
    expect(known('15013;15;w3;pk0')).toMatchObject({
      name: 'Red Rock Roscoe Pistol (Field-Tested)',
      item: 'Pistol',
      quality: { id: 15, name: 'Decorated Weapon', color: '#FAFAFA' },
      wear: { id: 3, name: 'Field-Tested' },
      paintKit: { id: 0, name: 'Red Rock Roscoe' },
    });
  });
});

describe('describe: SKUs the schema cannot name', () => {
  it.each([
    ['a defindex newer than the schema', '99999;6'],
    ['an unknown quality', '5021;99'],
    ['an unknown effect', '378;5;u99999'],
    ['an unknown paint kit', '15013;15;w3;pk99999'],
    ['a wear beyond Battle Scarred', '15013;15;w9;pk0'],
    ['a killstreak tier beyond Professional', '205;6;kt-4'],
    ['a part the format does not define', '5021;6;zz9'],
    ['an effect id that is not a number', '378;5;uabc'],
    ['untradable, which backpack.tf names do not spell', '5021;6;untradable'],
    ['a target item the schema lacks', '6526;6;kt-3;td-99999'],
    ['not a SKU at all', 'Mann Co. Supply Crate Key'],
    ['an empty string', ''],
  ])('%s (%s) is an unknown item whose name is the SKU, not an error', (_why, sku) => {
    expect(names.describe(sku)).toEqual({ known: false, sku, name: sku });
  });
});
