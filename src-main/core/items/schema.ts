import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ItemFormatPackage from 'tf2-item-format';
import type { Format, SchemaItem, SKUAttributes } from 'tf2-item-format';
import type * as StaticFormatPackage from 'tf2-item-format/static';
import type { Schema } from 'tf2-item-format/static';
import { effectExceptions, textureExceptions } from './parser-exceptions.ts';

/**
 * The game's item schema, through the packages the TF2 trading community
 * maintains, loaded only when first asked for.
 *
 * Why these packages:
 * - `tf2-item-format` turns a backpack.tf SKU into the name backpack.tf shows
 *   and a name back into attributes; its tests pin names against backpack.tf.
 * - `tf2-static-schema` is its data: the schema as JSON files, refreshed with
 *   every game update, so no Steam Web API key and no download at run time.
 *   SKU → name needs only the small files (item names, effects, paint kits,
 *   qualities, wears, killstreaks: about 0.6 MB); name → SKU also reads the
 *   20 MB `items.json` and the 10 MB `items-game.json`, of which this module
 *   keeps only the few fields the parser needs.
 * - `@tf2autobot/tf2-sku` only splits SKUs (no names), and
 *   `@tf2autobot/tf2-schema` fetches the whole schema from Steam with an API key.
 *
 * The packages are CommonJS and are required at first use (not imported at
 * start-up), so loading the app never waits for them.
 */

// Not named `require`: electron-vite's ESM output declares one of its own at the top of the bundle.
const requirePackage = createRequire(import.meta.url);

/** The format functions bound to a schema that loads its files lazily. */
export interface ItemFormat {
  /**
   * The package's whole format, loaded at first use: its name and econ item
   * parsers are most of the package's load, and naming a SKU needs neither.
   */
  readonly format: Format;
  /** What naming a SKU needs: the package's SKU reader and writer and its name writer. */
  readonly sku: SkuFormat;
  readonly schema: Schema;
}

export interface SkuFormat {
  parseSKU(sku: string): SKUAttributes;
  toSKU(attributes: SKUAttributes): string;
  /** The name backpack.tf shows for the item. */
  stringify(attributes: SKUAttributes): string;
}

/**
 * Loads the package's SKU functions and the small schema files they use for
 * SKU → name (the item list and the name parser load at their first use).
 * Synchronous: about 40 ms the first time (measured by test/bench/item-names.ts).
 */
export function loadItemFormat(): ItemFormat {
  const { Schema: StaticSchema } = requireFormatFile('static/schema') as typeof StaticFormatPackage;

  /**
   * The package's own static schema, except that the item list behind name →
   * defindex is read from disk into a slim copy instead of `require`d whole:
   * `require` would keep all 20 MB of `items.json` parsed in the module cache
   * (about 60 MB of heap) for the life of the process.
   */
  class SlimItemsSchema extends StaticSchema {
    override loadDefindexes(): void {
      this.items = readSlimItems();
    }
  }

  const schema = new SlimItemsSchema();
  let whole: Format | null = null;
  return {
    get format() {
      if (whole === null) {
        seedParserExceptions(schema);
        whole = (requirePackage('tf2-item-format') as typeof ItemFormatPackage).createFormat(schema);
      }
      return whole;
    },
    sku: skuFormat(schema),
    schema,
  };
}

/** The package's SKU functions, from their own files: its entry points load every parser it has. */
function skuFormat(schema: Schema): SkuFormat {
  const { default: parseSKU } = requireFormatFile('parseSKU') as { default: typeof ItemFormatPackage.parseSKU };
  const { default: toSKU } = requireFormatFile('toSKU') as { default: typeof ItemFormatPackage.toSKU };
  const { default: stringify } = requireFormatFile('stringify') as { default: (schema: Schema, attributes: SKUAttributes) => string };
  return { parseSKU, toSKU, stringify: (attributes) => stringify(schema, attributes) };
}

/**
 * A file of tf2-item-format's build (`dist/<file>.js`), found beside its entry:
 * the package exports only entries that load all of it. The files named here
 * are checked by the items' tests against the whole format's answers.
 */
function requireFormatFile(file: string): unknown {
  requireBeside ??= createRequire(requirePackage.resolve('tf2-item-format'));
  return requireBeside(`./${file}.js`);
}
/** A require that resolves beside the package's entry, made at the first file asked for. */
let requireBeside: NodeJS.Require | undefined;

/**
 * Hands the name parser its tables of overlapping names (parser-exceptions.ts)
 * before it parses anything: the package looks in its cache first and builds
 * them itself, a second or so, only when they are missing.
 */
function seedParserExceptions(schema: Schema): void {
  const { cache } = requireFormatFile('shared/schemaCache') as { cache: { save(schema: Schema, key: string, value: unknown): void } };
  // The keys the package's parser reads its tables by (parseString/Attributes/getEffect.js, shared/getTexture.js).
  cache.save(schema, 'effectExceptions', effectExceptions(schema));
  cache.save(schema, 'textureExceptions', textureExceptions(schema));
}

/** An item of the schema's list as this module keeps it: what the package's name parser reads, and the slot it is worn in. */
export type SlimItem = SchemaItem & { readonly item_slot?: string };

/** The fields of `items.json` that the package's name parser reads, and the slot (a weapon's takes killstreaks, a taunt's its own effects). */
function readSlimItems(): SlimItem[] {
  const raw = readStaticJson('items') as SlimItem[];
  return raw.map((i) => ({
    defindex: i.defindex,
    name: i.name,
    item_name: i.item_name,
    item_class: i.item_class,
    item_type_name: i.item_type_name,
    proper_name: i.proper_name,
    ...(typeof i.item_slot === 'string' ? { item_slot: i.item_slot } : {}),
  }));
}

/** The slot an item is worn in ("primary", "melee", "misc", "taunt", ...), from the list `loadItemFormat` keeps; null when it has none. */
export function itemSlot(item: SchemaItem): string | null {
  const slot = 'item_slot' in item ? item.item_slot : null;
  return typeof slot === 'string' ? slot : null;
}

/** What `items-game.json` says that the item list does not. */
export interface GameItems {
  /**
   * Weapon skins (the Gun Mettle and Tough Break cases, ...) are items of their
   * own: a "Red Rock Roscoe Pistol" is defindex 15013, not the Pistol (209) with a
   * paint kit. The schema says which item each is through its paint kit; this map
   * is keyed `<base item name>|<paint kit id>`.
   */
  readonly skins: Map<string, number>;
  /** Defindexes a Festivizer can be applied to. */
  readonly festivizable: Set<number>;
}

/** Reads `items-game.json` once (10 MB, about 100 ms) for what the name parser and the item's choices need of it. */
export function readGameItems(itemNames: (defindex: number) => string | undefined): GameItems {
  const game = readStaticJson('items-game') as {
    items: Record<string, { static_attrs?: Record<string, string | undefined>; tags?: Record<string, string | undefined> }>;
  };
  const skins = new Map<string, number>();
  const festivizable = new Set<number>();
  for (const [key, item] of Object.entries(game.items)) {
    const defindex = Number(key);
    if (item.tags?.['can_be_festivized'] === '1') festivizable.add(defindex);
    const paintKit = item.static_attrs?.['paintkit_proto_def_index'];
    if (paintKit === undefined) continue;
    const name = itemNames(defindex);
    if (name !== undefined) skins.set(`${name}|${Number(paintKit)}`, defindex);
  }
  return { skins, festivizable };
}

/**
 * Items that share one printed name, keyed by it: "Human Cannonball" is both
 * 817 and the promotional 838, "Name Tag" both 5020 and 2093 (the copy given in
 * bundles). Stock weapons (the package never picks them) and weapon skins
 * (told apart by paint kit) are left out, so a name with one entry is plain.
 */
export function readSameNamedItems({ schema }: ItemFormat, skins: ReadonlyMap<string, number>): Map<string, SchemaItem[]> {
  const skinDefindexes = new Set(skins.values());
  const byName = new Map<string, SchemaItem[]>();
  for (const item of schema.getItems()) {
    if (isStockWeapon(item) || skinDefindexes.has(item.defindex)) continue;
    const name: unknown = schema.getName(item.defindex);
    if (typeof name !== 'string') continue;
    const list = byName.get(name);
    if (list) list.push(item);
    else byName.set(name, [item]);
  }
  return byName;
}

/** The package's own rule: a stock weapon's internal name is its class, an upgradeable copy's "Upgradeable <CLASS>". */
function isStockWeapon(item: SchemaItem): boolean {
  return item.name.includes(item.item_class.toUpperCase()) && !item.name.startsWith('Upgradeable ');
}

/** One of tf2-static-schema's JSON files, parsed, not cached by `require`. */
function readStaticJson(file: string): unknown {
  return JSON.parse(readFileSync(requirePackage.resolve(`tf2-static-schema/static/${file}.json`), 'utf8')) as unknown;
}

/** The version of the schema data: names stored elsewhere (the store's name index) are rebuilt when it changes. */
export function schemaVersion(): string {
  const pkg = requirePackage('tf2-static-schema/package.json') as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
