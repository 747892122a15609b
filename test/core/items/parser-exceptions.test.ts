import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { effectExceptions, textureExceptions, type ExceptionSource } from '../../../src-main/core/items/parser-exceptions.ts';
import { loadItemFormat } from '../../../src-main/core/items/schema.ts';

// The package's own builders of these tables, and its cache: what ours must equal, and where they are handed.
const beside = createRequire(createRequire(import.meta.url).resolve('tf2-item-format'));
type Tables = Record<string, Record<string, string[]>>;
interface SchemaLike extends ExceptionSource { getVersion(): number }
const { findEffectExceptions } = beside('./parseString/Attributes/getEffect.js') as { findEffectExceptions(schema: SchemaLike): Tables };
const { findTextureExceptions } = beside('./shared/getTexture.js') as { findTextureExceptions(schema: SchemaLike): Tables };
const { cache } = beside('./shared/schemaCache.js') as { cache: { get(schema: object, key: string): unknown } };

/** Each table of ours against the package's: the same entries, the same lists in the same order, the same keys in the same order. */
function expectSame(ours: Tables, theirs: Tables): void {
  expect(ours).toEqual(theirs);
  for (const part of Object.keys(theirs)) expect(Object.keys(ours[part] ?? {})).toEqual(Object.keys(theirs[part] ?? {}));
}

function schemaOf(itemNames: string[], effects: Record<string, string | number>, textures: Record<string, string | number>): SchemaLike {
  return { getItems: () => itemNames.map((item_name) => ({ item_name })), getEffects: () => effects, getTextures: () => textures, getVersion: () => 1 };
}

describe("the name parser's tables of overlapping names", () => {
  it("are the package's own, entry for entry and in order, over the whole schema", () => {
    const { schema } = loadItemFormat();
    const ours = { effect: effectExceptions(schema), texture: textureExceptions(schema) };
    // Fresh builds of the package's (its cache holds ours once the parser is loaded).
    expectSame({ ...ours.effect }, findEffectExceptions(schema));
    expectSame({ ...ours.texture }, findTextureExceptions(schema));
    // The schema has such overlaps: "Smoking" is an effect and begins the Smoking Jacket's name, "Alpine" a paint kit and the Alpine Hawk.
    expect(ours.effect.item['Smoking']).toContain('Smoking Jacket');
    expect(ours.texture.item['Alpine']).toContain('Alpine Hawk');
  }, 30_000);

  it("are the package's own on names made to catch every rule", () => {
    const schema = schemaOf(
      [
        'Flames Hat', // an effect's name followed by a space
        'Burning Flames Burning Flames Cap', // the same effect twice: listed once
        'Flames Hat', // two items of the same name: both listed, as the package lists them
        'SuperFlames Kit', // an effect ending mid-word before a space
        'Hat Flames', // an effect at the end, with no space after: not listed
        'Red Rock Roscoe Pistol', // a paint kit followed by a space
        'A  Flames  B', // double spaces
        'Xy Z', // a two-letter name and a one-letter one
      ],
      { 'Flames': 13, 'Burning Flames': 14, '13': 'Flames', 'Flames Burning Flames': 15, 'Xy': 16, 'Z': 17, 'Rock': 18, 'Cool': 19 },
      { 'Red Rock': 1, 'Red Rock Roscoe': 2, 'Rock': 3, '1': 'Red Rock', 'Flames': 4, 'Cool Rock Roscoe Cool': 5 },
    );
    expectSame({ ...effectExceptions(schema) }, findEffectExceptions(schema));
    expectSame({ ...textureExceptions(schema) }, findTextureExceptions(schema));
  });

  it("are in the package's cache before the parser reads a name, and the item list is read only for their item part", () => {
    const loaded = loadItemFormat();
    const { schema } = loaded;
    expect(cache.get(schema, 'effectExceptions')).toBeNull();
    const parser = loaded.format;
    const effects = cache.get(schema, 'effectExceptions') as Tables | null;
    const textures = cache.get(schema, 'textureExceptions') as Tables | null;
    expect(effects).not.toBeNull();
    expect(textures).not.toBeNull();
    // An econ item's paint kit is checked against longer paint kits and effects first: no item list for those.
    expect(Object.keys(textures?.['texture'] ?? {})).toContain('Red Rock Roscoe');
    expect(Object.keys(textures?.['effect'] ?? {}).length).toBeGreaterThan(0);
    expect(schema.items).toBeUndefined();
    expect(textures?.['item']?.['Alpine']).toContain('Alpine Hawk');
    expect(schema.items).toBeDefined();
    expectSame({ ...effects }, findEffectExceptions(schema));
    // And the parser reads names with effects and paint kits by them.
    expect(parser.parseString('Burning Flames Team Captain', true, true)).toMatchObject({ defindex: 378, quality: 5, effect: 13 });
    expect(parser.parseString('Red Rock Roscoe Pistol (Field-Tested)', true, true)).toMatchObject({ name: 'Pistol', texture: 0, wear: 3 });
  });
});
