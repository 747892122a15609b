/**
 * The name parser's tables of overlapping names, built in milliseconds.
 *
 * tf2-item-format reads an effect or a paint kit out of a name only after it
 * has checked the words are not part of something else: an item's own name
 * ("Smoking" the effect, the Smoking Jacket; "Alpine" the paint kit, the
 * Alpine Hawk), a longer effect or paint kit. It builds these tables at its
 * first name with an effect, and again at its first with a paint kit, by
 * testing every item's name against every effect and paint kit one
 * `includes` at a time: about 0.95 s and 0.4 s here
 * (`test/bench/item-names.ts`), in which the data worker answers nothing.
 * The same tables are built here by looking, at each space of a name, only
 * at the names that end just before it, and `schema.ts` hands them to the
 * package's own cache, where its parser looks first, before it parses
 * anything. They are the package's, entry for entry and in its order, which
 * its parser's answers depend on: `test/core/items/parser-exceptions.test.ts`
 * compares them with the package's own.
 */

/** A table of the package's: for each name, the names it overlaps with, in the package's order. */
export type Overlaps = Record<string, string[]>;

/** What the parser checks an effect against: the items named with it, the longer effects and the paint kits holding it. */
export interface EffectExceptions {
  readonly item: Overlaps;
  readonly effect: Overlaps;
  readonly texture: Overlaps;
}

/** What the parser checks a paint kit against: the effects and longer paint kits holding it, the items named with it. */
export interface TextureExceptions {
  readonly effect: Overlaps;
  readonly texture: Overlaps;
  readonly item: Overlaps;
}

/** What the tables are built from: the schema's item list and its enums of effects and paint kits. */
export interface ExceptionSource {
  getItems(): readonly { readonly item_name: string }[];
  getEffects(): object;
  getTextures(): object;
}

/** The schema's enums (effects, paint kits) are keyed both by name and by number; the package skips the numbers as `!isNaN(key)` does. */
const isNumeric = (key: string) => !Number.isNaN(Number(key));
const namesOf = (enumeration: object) => Object.keys(enumeration).filter((k) => !isNumeric(k));
const itemNamesOf = (schema: ExceptionSource) => schema.getItems().map((i) => i.item_name);

/**
 * Each part is built when the parser first reads it: the item part needs the
 * 20 MB item list, which a name checked against a paint kit alone (an
 * inventory's items, read by their defindex) may never load.
 */
export function effectExceptions(schema: ExceptionSource): EffectExceptions {
  return builtWhenRead({
    item: () => namedBefore(itemNamesOf(schema), namesOf(schema.getEffects())),
    effect: () => wordRuns(namesOf(schema.getEffects())),
    texture: () => containing(namesOf(schema.getEffects()), namesOf(schema.getTextures())),
  });
}

export function textureExceptions(schema: ExceptionSource): TextureExceptions {
  return builtWhenRead({
    // The package checks every effect key here, numbers too.
    effect: () => containing(namesOf(schema.getTextures()), Object.keys(schema.getEffects())),
    texture: () => wordRuns(namesOf(schema.getTextures())),
    item: () => namedBefore(itemNamesOf(schema), namesOf(schema.getTextures())),
  });
}

/** An object whose every part is built at its first read, once. */
function builtWhenRead<K extends string>(builders: Record<K, () => Overlaps>): Record<K, Overlaps> {
  const parts = {} as Record<K, Overlaps>;
  for (const key of Object.keys(builders) as K[]) {
    let built: Overlaps | undefined;
    Object.defineProperty(parts, key, { enumerable: true, get: () => (built ??= builders[key]()) });
  }
  return parts;
}

function addTo(lists: Map<string, string[]>, key: string, value: string): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/** A table keyed in `keys` order, holding the keys that found anything. */
function inOrder(keys: readonly string[], found: ReadonlyMap<string, string[]>): Overlaps {
  const table: Overlaps = {};
  for (const key of keys) {
    const list = found.get(key);
    if (list !== undefined) table[key] = list;
  }
  return table;
}

/**
 * For each of `names`, the `texts` that hold it followed by a space
 * (`text.includes(name + ' ')`), in `texts` order. Each text is read at its
 * spaces: a name that ends just before one ends with the same two characters,
 * so only the names of those last two characters are compared there.
 */
function namedBefore(texts: readonly string[], names: readonly string[]): Overlaps {
  const byEnd = new Map<string, string[]>();
  const short: string[] = [];
  for (const name of names) {
    if (name.length < 2) short.push(name);
    else addTo(byEnd, name.slice(-2), name);
  }
  const found = new Map<string, string[]>();
  const matched = new Set<string>();
  for (const text of texts) {
    matched.clear();
    for (let space = text.indexOf(' '); space >= 0; space = text.indexOf(' ', space + 1)) {
      const candidates = space >= 2 ? byEnd.get(text.slice(space - 2, space)) : undefined;
      for (const name of candidates ?? []) if (text.endsWith(name, space)) matched.add(name);
      for (const name of short) if (text.endsWith(name, space)) matched.add(name);
    }
    for (const name of matched) addTo(found, name, text);
  }
  return inOrder(names, found);
}

/**
 * For each of `names`, the other names that hold it as whole words at their
 * start, middle or end (`startsWith(n + ' ')`, `includes(' ' + n + ' ')`,
 * `endsWith(' ' + n)`), in `names` order: each name's runs of whole words but
 * itself, looked up.
 */
function wordRuns(names: readonly string[]): Overlaps {
  const known = new Set(names);
  const found = new Map<string, string[]>();
  for (const name of names) {
    const starts = [0];
    const ends: number[] = [];
    for (let space = name.indexOf(' '); space >= 0; space = name.indexOf(' ', space + 1)) {
      ends.push(space);
      starts.push(space + 1);
    }
    ends.push(name.length);
    const held = new Set<string>();
    for (const start of starts) {
      for (const end of ends) {
        if (end <= start || (start === 0 && end === name.length)) continue;
        const run = name.slice(start, end);
        if (known.has(run)) held.add(run);
      }
    }
    for (const run of held) addTo(found, run, name);
  }
  return inOrder(names, found);
}

/** For each of `names`, the `texts` that hold it anywhere (`text.includes(name)`), in `texts` order. */
function containing(names: readonly string[], texts: readonly string[]): Overlaps {
  const table: Overlaps = {};
  for (const name of names) {
    const holding = texts.filter((t) => t.includes(name));
    if (holding.length > 0) table[name] = holding;
  }
  return table;
}
