import { takeWords, type BaseName, type BaseNames } from './base-names.ts';
import type { ItemDescription } from './describe-sku.ts';
import type { ItemFormat } from './schema.ts';
import { searchWords } from './search-words.ts';
import type { NameResolution } from './sku-for-name.ts';
import type { PartReader, TypedParts } from './typed-parts.ts';

/**
 * A name as a trader types it where a SKU is asked for (buy by name): in any
 * case, order and spelling the search understands (search-words.ts), turned
 * into the name backpack.tf prints ("team captain burning flames" is "Burning
 * Flames Team Captain") and resolved by the schema's parser (sku-for-name.ts),
 * so every name resolves the way the CSV import resolves it.
 */
export interface TypedNames {
  /** The SKU the text names, read as typed first, then in any order; the refusal of the text as typed when neither works. */
  resolve(text: string): NameResolution;
  /** Names the text may be the start of, each with what it resolves to, at most `limit`. */
  suggest(text: string, limit: number): TypedMatch[];
  /** The nearest name within a few typing mistakes ("Mann Co Suply Crate Key" → "Mann Co. Supply Crate Key"), or null. */
  nearMiss(text: string): { name: string; sku: string } | null;
}

/** A name offered while typing: its SKU, or null and the SKUs it may mean when several items bear it. */
export interface TypedMatch {
  readonly name: string;
  readonly sku: string | null;
  readonly candidates: readonly string[];
}

export interface TypedNameDeps {
  readonly format: ItemFormat;
  readonly bases: BaseNames;
  readonly parts: PartReader;
  readonly skuForName: (name: string) => NameResolution;
  readonly describe: (sku: string) => ItemDescription;
}

/** How many base names a suggestion looks at per way of reading the text: more than it shows, as some resolve to nothing. */
const LOOK_AT = 3;

export function createTypedNames(deps: TypedNameDeps): TypedNames {
  const { bases, parts } = deps;

  /** The name backpack.tf prints for a base name with typed parts, or null when the schema cannot write it. */
  function compose(base: BaseName, p: TypedParts): string | null {
    const quality = p.quality ?? impliedQuality(p);
    try {
      return deps.format.format.stringify({
        name: base.printed,
        quality,
        craftable: p.craftable ?? true,
        elevated: p.strange === true && quality !== 11,
        ...(p.effect === undefined ? {} : { effect: p.effect }),
        ...(p.killstreak === undefined ? {} : { killstreak: p.killstreak }),
        ...(p.australium === true ? { australium: true } : {}),
        ...(p.festivized === true ? { festivized: true } : {}),
        ...(p.wear === undefined ? {} : { wear: p.wear }),
        ...(p.texture === undefined ? {} : { texture: p.texture }),
      });
    } catch {
      return null;
    }
  }

  function match(base: BaseName, p: TypedParts): TypedMatch | null {
    const name = compose(base, p);
    if (name === null) return null;
    const r = deps.skuForName(name);
    if (r.ok) return { name: deps.describe(r.sku).name, sku: r.sku, candidates: [] };
    return r.reason === 'ambiguous' ? { name, sku: null, candidates: r.candidates } : null;
  }

  return {
    resolve(text) {
      const typed = deps.skuForName(text);
      if (typed.ok || typed.reason === 'ambiguous' || typed.reason === 'empty') return typed;
      const words = searchWords(text);
      // Every base name whose words were all typed, the longest first ("Haunted Metal Scrap" before "Metal Scrap"),
      // and the first whose other words are all parts.
      for (const base of bases.within(words)) {
        const read = parts.read(takeWords(words, base.words) ?? []);
        if (read.rest.length > 0) continue;
        const name = compose(base, read.parts);
        if (name === null) continue;
        const r = deps.skuForName(name);
        if (r.ok || r.reason === 'ambiguous') return r;
      }
      return typed;
    },
    suggest(text, limit) {
      const words = searchWords(text);
      if (words.length === 0) return [];
      const read = parts.read(words);
      const ways: { base: BaseName; parts: TypedParts }[] = [];
      // The typed parts around the starts of a name's words, then every word as the start of a name's.
      // A name that holds the part's words itself ("Haunted Metal Scrap") is offered as it is, not with the part again.
      const whole = bases.startingWith(words, limit * LOOK_AT);
      if (Object.keys(read.parts).length > 0 && read.rest.length > 0) {
        for (const base of bases.startingWith(read.rest, limit * LOOK_AT)) if (!whole.includes(base)) ways.push({ base, parts: read.parts });
      }
      for (const base of whole) ways.push({ base, parts: {} });
      // Nothing yet: the last words may be the start of a part ("team captain burn" → Burning Flames).
      for (let n = 1; ways.length === 0 && n <= Math.min(3, read.rest.length - 1); n++) {
        const head = read.rest.slice(0, -n);
        const completions = parts.completions(read.rest.slice(-n), limit);
        for (const base of bases.startingWith(head, 1)) for (const c of completions) ways.push({ base, parts: { ...read.parts, ...c } });
      }
      const out: TypedMatch[] = [];
      const seen = new Set<string>();
      for (const way of ways) {
        if (out.length >= limit) break;
        const m = match(way.base, way.parts);
        if (m === null || seen.has(m.name)) continue;
        seen.add(m.name);
        out.push(m);
      }
      return out;
    },
    nearMiss(text) {
      const read = parts.read(searchWords(text));
      const base = read.rest.length === 0 ? null : bases.nearest(read.rest.join(' '));
      const m = base === null ? null : match(base, read.parts);
      return m?.sku ? { name: m.name, sku: m.sku } : null;
    },
  };
}

/**
 * The quality a trader means when typing none: Unusual with an effect,
 * Strange for an Australium (every one is) or for "strange" alone, Decorated
 * for a war paint, else Unique.
 */
function impliedQuality(p: TypedParts): number {
  if (p.effect !== undefined) return 5;
  if (p.australium === true || p.strange === true) return 11;
  if (p.texture !== undefined) return 15;
  return 6;
}
