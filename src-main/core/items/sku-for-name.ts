import type { DefaultItemAttributes, ItemAttributesInNumbers, ItemDefindexes, SchemaItem } from 'tf2-item-format';
import type { ItemDescription } from './describe-sku.ts';
import type { ItemFormat } from './schema.ts';
import { printable } from '../safe-text.ts';

/** Why a name gives no SKU. */
export type NameRefusal = 'empty' | 'no_such_item' | 'not_understood' | 'ambiguous';

/** A name resolved to one SKU, or the reason it cannot be, in a sentence for the trader. */
export type NameResolution =
  | { readonly ok: true; readonly sku: string }
  | {
    readonly ok: false;
    readonly reason: NameRefusal;
    readonly message: string;
    /** The SKUs an ambiguous name matches; empty otherwise. */
    readonly candidates: readonly string[];
  };

/**
 * Names of the SKUs the trader already has (listings, buy orders), lower-cased,
 * each with its SKUs. Several SKUs can share one name: a Pistol (209) and a
 * Red Rock Roscoe Pistol (15013) with the same paint kit and wear read alike.
 */
export type KnownNames = ReadonlyMap<string, readonly string[]>;

export interface NameResolverParts {
  readonly format: ItemFormat;
  /** Weapon skin defindexes keyed `<base item name>|<paint kit id>` (see readGameItems). */
  readonly skins: () => ReadonlyMap<string, number>;
  /** Items sharing a printed name (see readSameNamedItems). */
  readonly sameNamed: () => ReadonlyMap<string, readonly SchemaItem[]>;
  readonly describe: (sku: string) => ItemDescription;
}

/**
 * Turns a name (a CSV cell) into a SKU. A name that matches SKUs the trader
 * already holds resolves to that SKU, and is ambiguous when it matches more
 * than one. Otherwise the game's schema decides, through the package's parser.
 * Where several items share the name, the one whose internal name is the name
 * itself wins ("Name Tag" 5020 over "Name Tag For Bundles" 2093); with no such
 * single item (tournament medals of several seasons, crates of several series)
 * the name is ambiguous. The SKU must read back as the same words, so that a
 * word the parser skipped (a typo in an effect, a wear it does not know) is
 * refused instead of dropped.
 */
export function resolveName(parts: NameResolverParts, input: string, known?: KnownNames): NameResolution {
  const name = normalizeName(input);
  if (name === '') return refuse('empty', 'No item name was given.');

  const held = known?.get(name.toLowerCase()) ?? [];
  if (held.length === 1) return { ok: true, sku: held[0] ?? '' };
  if (held.length > 1) {
    return refuse('ambiguous', `"${said(name)}" matches ${held.length} of your items (${held.join(', ')}): give the SKU instead.`, held);
  }

  const { format, schema } = parts.format;
  let attributes: DefaultItemAttributes & ItemDefindexes & ItemAttributesInNumbers;
  try {
    attributes = format.parseString(name, true, true);
  } catch {
    return refuse('not_understood', `"${said(name)}" could not be read as an item name.`);
  }
  if (typeof attributes.defindex !== 'number' || Number.isNaN(attributes.defindex)) {
    return refuse('no_such_item', `No item in the game's schema is called "${said(name)}" (names are read as backpack.tf writes them).`);
  }
  if (attributes.texture !== undefined) {
    const skin = parts.skins().get(`${schema.getName(attributes.defindex)}|${attributes.texture}`);
    if (skin !== undefined) attributes = { ...attributes, defindex: skin };
  }

  // Kits, strangifiers and fabricators are told apart by their target and output, which the package reads.
  if (attributes.targetDefindex === undefined && attributes.outputDefindex === undefined) {
    const group = parts.sameNamed().get(schema.getName(attributes.defindex)) ?? [];
    if (group.length > 1) {
      const canonical = group.filter((i) => i.name === i.item_name || i.name === `The ${i.item_name}`);
      const only = canonical.length === 1 ? canonical[0] : undefined;
      if (only === undefined) {
        const candidates = group.map((i) => format.toSKU({ ...attributes, defindex: i.defindex }));
        return refuse('ambiguous', `"${said(name)}" is the name of ${group.length} different items (${candidates.join(', ')}): give the SKU instead.`, candidates);
      }
      attributes = { ...attributes, defindex: only.defindex };
    }
  }

  const sku = format.toSKU(attributes);
  const read = parts.describe(sku);
  if (!read.known) return refuse('not_understood', `"${said(name)}" could not be read as an item the game's schema knows.`);
  const asTyped = attributes.isUniqueHat === true ? name.replace(/^The /, '') : name;
  if (!sameWords(read.name, asTyped)) {
    return refuse('not_understood', `"${said(name)}" could not be read whole; the nearest item is "${read.name}".`);
  }
  return { ok: true, sku };
}

/** Trims, collapses spaces and straightens typographic apostrophes ("Fat Man’s" → "Fat Man's"). */
export function normalizeName(input: string): string {
  return input.normalize('NFC').replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, ' ').trim();
}

/** Same words, any order: the parser accepts "Professional Killstreak Festivized" for "Festivized Professional Killstreak". */
function sameWords(a: string, b: string): boolean {
  const words = (s: string) => s.split(' ').sort().join(' ');
  return words(a) === words(b);
}

/** The name as a refusal quotes it: what was typed (a CSV cell may run to 64k characters), as an excerpt at most. */
function said(name: string): string {
  return printable(name, 80);
}

function refuse(reason: NameRefusal, message: string, candidates: readonly string[] = []): NameResolution {
  return { ok: false, reason, message, candidates };
}
