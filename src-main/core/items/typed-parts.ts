import type { ItemFormat } from './schema.ts';
import { foldSearchText, spellOut } from './search-words.ts';

/**
 * The parts of an item a trader types around its name, in any order:
 * quality ("strange", "unusual", "vintage", ...), the Unusual effect
 * ("burning flames"), the killstreak tier ("professional killstreak", typed
 * "pro ks"), "australium", "festivized", "craftable"/"noncraftable", the
 * wear and a war paint. Each is a run of folded words (search-words.ts), read
 * from the game's schema once.
 */
export interface TypedParts {
  readonly quality?: number;
  /** "strange" was typed: the quality alone, or Strange as a second quality (a Strange Unusual). */
  readonly strange?: boolean;
  readonly effect?: number;
  readonly killstreak?: number;
  readonly australium?: boolean;
  readonly festivized?: boolean;
  readonly craftable?: boolean;
  readonly wear?: number;
  readonly texture?: number;
}

type Part = { readonly [K in keyof TypedParts]-?: { readonly key: K; readonly value: NonNullable<TypedParts[K]> } }[keyof TypedParts];

export interface PartReader {
  /** The parts among `words` and the words that are none (in order). A part typed twice over (two effects) is left among the words. */
  read(words: readonly string[]): { parts: TypedParts; rest: string[] };
  /** Parts whose words `words` may be the start of ("burn" → Burning Flames, ...), at most `limit`, shortest first. */
  completions(words: readonly string[], limit: number): TypedParts[];
}

/** Qualities a trader types by name (Strange is the `strange` part); "Decorated Weapon" is also typed "decorated". */
const QUALITIES = [0, 1, 3, 5, 6, 7, 8, 9, 13, 14, 15];

/** Effects the schema lists that are no effect a trader can own (placeholders). */
const PLACEHOLDER_EFFECT = /^(Attrib_|Particle \d)/;

export function createPartReader({ schema }: ItemFormat): PartReader {
  const phrases = new Map<string, Part>();
  const add = (name: string, part: Part) => {
    const key = spellOut(foldSearchText(name).split(' ')).join(' ');
    if (key !== '' && !phrases.has(key)) phrases.set(key, part);
  };
  for (const id of QUALITIES) add(schema.getQualityName(id), { key: 'quality', value: id });
  add('Decorated', { key: 'quality', value: 15 });
  add('Strange', { key: 'strange', value: true });
  for (const [id, name] of [[3, 'Professional Killstreak'], [2, 'Specialized Killstreak'], [1, 'Killstreak']] as const) add(name, { key: 'killstreak', value: id });
  add('Australium', { key: 'australium', value: true });
  add('Festivized', { key: 'festivized', value: true });
  add('Non-Craftable', { key: 'craftable', value: false });
  add('Craftable', { key: 'craftable', value: true });
  for (let id = 1; id <= 5; id++) add(schema.getWearName(id), { key: 'wear', value: id });
  for (const [id, name] of named(schema.getEffects())) if (!PLACEHOLDER_EFFECT.test(name)) add(name, { key: 'effect', value: id });
  for (const [id, name] of named(schema.getTextures())) add(name, { key: 'texture', value: id });
  const longest = Math.max(...[...phrases.keys()].map((k) => k.split(' ').length));
  const keys = [...phrases.keys()].sort((a, b) => a.length - b.length);

  return {
    read(words) {
      const parts: Record<string, unknown> = {};
      const rest: string[] = [];
      for (let i = 0; i < words.length;) {
        let found: { part: Part; length: number } | null = null;
        for (let n = Math.min(longest, words.length - i); n > 0 && found === null; n--) {
          const part = phrases.get(words.slice(i, i + n).join(' '));
          if (part !== undefined) found = { part, length: n };
        }
        if (found === null || (found.part.key in parts && parts[found.part.key] !== found.part.value)) {
          rest.push(words[i] ?? '');
          i += 1;
          continue;
        }
        parts[found.part.key] = found.part.value;
        i += found.length;
      }
      return { parts: parts as TypedParts, rest };
    },
    completions(words, limit) {
      const out: TypedParts[] = [];
      for (const key of keys) {
        const phrase = key.split(' ');
        if (phrase.length < words.length || !words.every((w, i) => (phrase[i] ?? '').startsWith(w))) continue;
        const part = phrases.get(key);
        if (part) out.push({ [part.key]: part.value });
        if (out.length >= limit) break;
      }
      return out;
    },
  };
}

/** The numbered entries of one of the schema's two-way tables (id → name and name → id). */
function named(table: Readonly<Record<string, string | number>>): [number, string][] {
  return Object.entries(table).flatMap(([k, v]) => (/^\d+$/.test(k) && typeof v === 'string' ? [[Number(k), v] as [number, string]] : []));
}
