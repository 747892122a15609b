import type { ItemFormat } from './schema.ts';

/**
 * Names a trader may mean while typing one: the game's item names (as
 * backpack.tf prints them) that the typed words lead to, with the words
 * that come before an item's name in front ("Strange Professional
 * Killstreak", "Non-Craftable", ...) kept as typed. Names that start with
 * the typed text come first, then names with a word starting with it, then
 * names containing it; shorter names first within each. The caller turns
 * each into its SKU (sku-for-name.ts) and keeps those that resolve.
 */
export interface NameIndex {
  suggest(text: string, limit: number): string[];
  /** The schema's own name of an item, which tells apart items printed alike (medals of several seasons). */
  internalName(defindex: number): string | null;
}

/** Words that can stand before an item's name, as backpack.tf writes them; longest first so "Professional Killstreak" wins over "Killstreak". */
const PREFIXES = [
  'Non-Craftable', 'Strange', 'Vintage', 'Genuine', 'Haunted', "Collector's", 'Unusual', 'Self-Made', 'Community', 'Valve',
  'Professional Killstreak', 'Specialized Killstreak', 'Killstreak', 'Australium', 'Festivized', 'Decorated',
].sort((a, b) => b.length - a.length);

/** Below this many typed characters nothing is suggested: "a" matches thousands. */
const MIN_TYPED = 2;

export function createNameIndex(format: ItemFormat): NameIndex {
  const { schema } = format;
  const names: string[] = [];
  const lower: string[] = [];
  const internal = new Map<number, string>();
  const seen = new Set<string>();
  for (const item of schema.getItems()) {
    internal.set(item.defindex, item.name);
    const name: unknown = schema.getName(item.defindex);
    if (typeof name !== 'string' || name === '' || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  names.sort((a, b) => a.length - b.length || a.localeCompare(b));
  for (const n of names) lower.push(n.toLowerCase());

  return {
    suggest(text, limit) {
      const { prefix, rest } = splitPrefix(text);
      if (rest.length < MIN_TYPED) return [];
      const starts: string[] = [];
      const words: string[] = [];
      const inside: string[] = [];
      for (let i = 0; i < lower.length && starts.length < limit; i++) {
        const n = lower[i] ?? '';
        const at = n.indexOf(rest);
        if (at < 0) continue;
        const name = names[i] ?? '';
        if (at === 0) starts.push(name);
        else if (n[at - 1] === ' ') words.push(name);
        else inside.push(name);
      }
      return [...starts, ...words, ...inside].slice(0, limit).map((n) => `${prefix}${n}`);
    },
    internalName: (defindex) => internal.get(defindex) ?? null,
  };
}

/** The quality and killstreak words the trader typed before the item's name, written as backpack.tf does, and the rest lower-cased. */
function splitPrefix(text: string): { prefix: string; rest: string } {
  let rest = text.replace(/\s+/g, ' ').trimStart();
  let prefix = '';
  for (;;) {
    const low = rest.toLowerCase();
    const word = PREFIXES.find((p) => low.startsWith(`${p.toLowerCase()} `));
    if (word === undefined) break;
    prefix += `${word} `;
    rest = rest.slice(word.length + 1);
  }
  return { prefix, rest: rest.trim().toLowerCase() };
}
