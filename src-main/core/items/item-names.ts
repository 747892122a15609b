import type { EconItem, SchemaItem } from 'tf2-item-format';
import { skuOfEcon } from './econ-sku.ts';
import { describeSku } from './describe-sku.ts';
import type { ItemDescription } from './describe-sku.ts';
import { createBaseNames, type BaseNames } from './base-names.ts';
import { variantsOf, type ItemVariants } from './item-variants.ts';
import { loadItemFormat, readGameItems, readSameNamedItems, type GameItems } from './schema.ts';
import type { ItemFormat } from './schema.ts';
import { itemWords } from './search-words.ts';
import { resolveName } from './sku-for-name.ts';
import type { KnownNames, NameResolution } from './sku-for-name.ts';
import { partName, type PartKind } from './part-names.ts';
import { createPartReader } from './typed-parts.ts';
import { createTypedNames, type TypedMatch, type TypedNames } from './typed-name.ts';
import { inTurns, type Steps } from '../turn.ts';

/**
 * What a trader reads instead of a SKU, for every screen, the CSV and the
 * ledger filter. Nothing is loaded until the first question (or `warm()`);
 * each SKU is described once and remembered.
 */
export interface ItemNames {
  /** The item behind a SKU; `known: false` (never a throw) for a SKU the schema cannot name. */
  describe(sku: string): ItemDescription;
  /** The full name, or the SKU itself for an unknown item. */
  name(sku: string): string;
  /**
   * The name lower-cased, for the ledger filter. Fastest when a row keeps it
   * from the moment it is loaded: a keystroke then costs one `includes` a row
   * (a few ms for 50,000 rows, see test/bench/item-names.ts).
   */
  searchName(sku: string): string;
  /** The folded words a search finds the SKU by (search-words.ts); none for a SKU the schema cannot name. */
  searchWords(sku: string): string[];
  /**
   * A test of "does this SKU's name contain the typed text" (case-insensitive),
   * for callers whose rows do not keep `searchName`: one map look-up more a row.
   */
  nameFilter(text: string): (sku: string) => boolean;
  /** The names of SKUs the trader holds, for `skuForName` (build once per import). */
  knownNames(skus: Iterable<string>): KnownNames;
  /**
   * A name (a CSV cell) to a SKU, or why not. The first calls read the large
   * schema files and build the parser's tables: about 0.4 s in all on a
   * 2-core machine (test/bench/item-names.ts), then a fraction of a ms a
   * name. Run imports where that pause freezes no window, or `warm` first.
   */
  skuForName(name: string, known?: KnownNames): NameResolution;
  /**
   * A name typed where a SKU is asked for, read as typed, then in any order,
   * case and spelling the search understands (typed-name.ts).
   */
  resolveTyped(text: string): NameResolution;
  /**
   * Names the typed text may be the start of, each with the SKU it resolves
   * to, or null and the SKUs it may mean when several items bear it (names
   * that resolve to nothing are left out), at most `limit`. The first call
   * reads the item list (as `skuForName` does).
   */
  suggest(text: string, limit: number): TypedMatch[];
  /** The name a mistyped one is nearest to, within a few edits, with its SKU ("did you mean"); null when none is near. */
  nearMiss(text: string): { name: string; sku: string } | null;
  /** What else the item of a SKU comes as (quality, effect, killstreak, ...), each with its SKU; null for a SKU the schema cannot name. */
  variants(sku: string): ItemVariants | null;
  /** The schema's name of a quality, effect, killstreak tier or wear (for the filters). */
  partName(kind: PartKind, id: number): string;
  /** The schema's own name of a SKU's item ("Decoder Ring" for 5021;6): tells apart items printed alike. */
  internalName(sku: string): string | null;
  /**
   * The SKU of an item of Steam's inventory (an econ item), or null when it
   * cannot be read as one. Needs the large schema files, as `skuForName` does:
   * `warm({ reverse: true })` first.
   */
  skuOfEcon(econ: EconItem): string | null;
  /**
   * Loads the names on a later turn of the event loop, so that start-up and
   * the first paint never wait for them; resolves once they are ready.
   * `{ reverse: true }` also prepares `skuForName` (before a CSV import),
   * a large part a turn.
   */
  warm(options?: { readonly reverse?: boolean }): Promise<void>;
}

/** Names whose parsing builds the parser's effect, paint kit and same-name tables. */
const WARM_NAMES = ['Burning Flames Team Captain', 'Red Rock Roscoe Pistol (Field-Tested)'];

/** Above this many remembered SKUs the memory is dropped and refilled: only hostile input gets there. */
const MAX_REMEMBERED = 200_000;

/**
 * Item names from the game's schema, loaded lazily.
 * @param load how the schema is loaded; tests and benchmarks pass their own to count or time it.
 */
export function createItemNames(load: () => ItemFormat = loadItemFormat): ItemNames {
  let format: ItemFormat | null = null;
  let game: GameItems | null = null;
  let sameNamed: Map<string, SchemaItem[]> | null = null;
  let bases: BaseNames | null = null;
  let typed: TypedNames | null = null;
  let byDefindex: Map<number, SchemaItem> | null = null;
  const descriptions = new Map<string, ItemDescription>();
  const lowerNames = new Map<string, string>();

  const loaded = (): ItemFormat => (format ??= load());

  function describe(sku: string): ItemDescription {
    let found = descriptions.get(sku);
    if (found === undefined) {
      if (descriptions.size >= MAX_REMEMBERED) {
        descriptions.clear();
        lowerNames.clear();
      }
      found = describeSku(loaded(), sku);
      descriptions.set(sku, found);
    }
    return found;
  }

  function lowerName(sku: string): string {
    let lower = lowerNames.get(sku);
    if (lower === undefined) {
      lower = describe(sku).name.toLowerCase();
      lowerNames.set(sku, lower);
    }
    return lower;
  }

  const gameItems = () => (game ??= readGameItems((d) => printedName(loaded(), d)));
  const baseNames = () => (bases ??= createBaseNames(loaded()));

  function skuForName(name: string, known?: KnownNames): NameResolution {
    const parts = {
      format: loaded(),
      skins: () => gameItems().skins,
      sameNamed: () => (sameNamed ??= readSameNamedItems(loaded(), gameItems().skins)),
      describe,
    };
    return resolveName(parts, name, known);
  }

  /**
   * What `warm` loads, from a later turn on, each large part in a turn of its
   * own, so that what the desk is asked meanwhile (a page, a beat) waits for
   * one part, not for all.
   */
  function* warmSteps(reverse: boolean): Steps<void> {
    yield;
    describe('5021;6');
    if (!reverse) return;
    yield;
    loaded().schema.getItems(); // the 20 MB item list
    yield;
    gameItems(); // the 10 MB game file's skins and festivizable items
    yield;
    // One name with an effect and one with a paint kit build the parser's tables and its same-named items.
    for (const name of WARM_NAMES) skuForName(name);
    yield;
    typedNames();
  }

  const typedNames = () => (typed ??= createTypedNames({
    format: loaded(), bases: baseNames(), parts: createPartReader(loaded()), skuForName: (name) => skuForName(name), describe,
  }));

  return {
    describe,
    name: (sku) => describe(sku).name,
    searchName: lowerName,
    searchWords(sku) {
      const d = describe(sku);
      return d.known ? itemWords(d) : [];
    },
    nameFilter(text) {
      const needle = text.toLowerCase();
      return (sku) => lowerName(sku).includes(needle);
    },
    knownNames(skus) {
      const byName = new Map<string, string[]>();
      for (const sku of new Set(skus)) {
        const key = lowerName(sku);
        const list = byName.get(key);
        if (list) list.push(sku);
        else byName.set(key, [sku]);
      }
      return byName;
    },
    skuForName,
    resolveTyped: (text) => typedNames().resolve(text),
    suggest: (text, limit) => typedNames().suggest(text, limit),
    nearMiss: (text) => typedNames().nearMiss(text),
    variants(sku) {
      const { schema } = loaded();
      return variantsOf({
        format: loaded(),
        describe,
        item: (defindex) => (byDefindex ??= new Map(schema.getItems().map((i) => [i.defindex, i]))).get(defindex),
        festivizable: () => gameItems().festivizable,
      }, sku);
    },
    partName: (kind, id) => partName(loaded(), kind, id),
    internalName(sku) {
      const defindex = Number(sku.split(';')[0]);
      return Number.isInteger(defindex) ? baseNames().internalName(defindex) : null;
    },
    skuOfEcon: (econ) => skuOfEcon(loaded(), econ),
    warm: (options) => inTurns(warmSteps(options?.reverse === true)),
  };
}

/** The schema's name for a defindex, as the package prints it (its own overrides included). */
function printedName({ schema }: ItemFormat, defindex: number): string | undefined {
  const name: unknown = schema.getName(defindex);
  return typeof name === 'string' ? name : undefined;
}
