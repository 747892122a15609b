import { editDistance } from './edit-distance.ts';
import type { ItemFormat } from './schema.ts';
import { foldSearchText, spellOut } from './search-words.ts';

/**
 * The game's item names without quality or attributes ("Team Captain",
 * "Mann Co. Supply Crate Key"), as backpack.tf prints them, each folded into
 * the words a search is read in (search-words.ts). Built once from the
 * schema's item list, so a typed name is looked up among a few thousand
 * names in a fraction of a millisecond: by whole words in any order, by the
 * starts of words while typing, or by a few typing mistakes ("did you mean").
 */
export interface BaseName {
  /** As the schema prints it. */
  readonly printed: string;
  /** Folded and spelled out, in order. */
  readonly words: readonly string[];
  /** `words` joined by spaces: what a near miss is measured against. */
  readonly folded: string;
}

export interface BaseNames {
  /** Names every word of which is among `words` (each word used once), the most words first. */
  within(words: readonly string[]): BaseName[];
  /** Names in which each of `words` starts a word, best first (see `rank`), at most `limit`. */
  startingWith(words: readonly string[], limit: number): BaseName[];
  /** The name nearest to `folded` within a few edits (see `allowedEdits`), or null. */
  nearest(folded: string): BaseName | null;
  /** The schema's own name of an item, which tells apart items printed alike (medals of several seasons). */
  internalName(defindex: number): string | null;
}

/** Below this many typed characters nothing is offered: "a" starts thousands of names. */
const MIN_TYPED = 2;

/** Edits a near miss may be away: one in a short word, three in a long name. */
export function allowedEdits(length: number): number {
  if (length < 4) return 0;
  if (length < 9) return 1;
  return length < 16 ? 2 : 3;
}

export function createBaseNames({ schema }: ItemFormat): BaseNames {
  const internal = new Map<number, string>();
  const seen = new Set<string>();
  const names: BaseName[] = [];
  for (const item of schema.getItems()) {
    internal.set(item.defindex, item.name);
    const printed: unknown = schema.getName(item.defindex);
    if (typeof printed !== 'string' || printed === '' || seen.has(printed)) continue;
    seen.add(printed);
    const words = spellOut(foldSearchText(printed).split(' ').filter((w) => w !== ''));
    if (words.length > 0) names.push({ printed, words, folded: words.join(' ') });
  }
  // Each name's letters counted once: a name whose letters differ from the typed ones by more than the edits allowed is skipped unmeasured.
  const bags = new Map<BaseName, Uint8Array>(names.map((n) => [n, letterBag(n.folded)]));
  names.sort((a, b) => a.printed.length - b.printed.length || a.printed.localeCompare(b.printed));
  // Names by folded length, for near misses: only lengths within the allowed edits are measured.
  const byLength = new Map<number, BaseName[]>();
  for (const n of names) {
    const list = byLength.get(n.folded.length);
    if (list) list.push(n);
    else byLength.set(n.folded.length, [n]);
  }

  return {
    within(words) {
      const typed = new Set(words);
      const found = names.filter((n) => n.words.every((w) => typed.has(w)) && takeWords(words, n.words) !== null);
      return found.sort((a, b) => b.words.length - a.words.length);
    },
    startingWith(words, limit) {
      if (words.join('').length < MIN_TYPED) return [];
      const found = names.filter((n) => words.every((w) => n.words.some((nw) => nw.startsWith(w))));
      return rank(found, words[0] ?? '').slice(0, limit);
    },
    nearest(folded) {
      const max = allowedEdits(folded.length);
      if (max === 0) return null;
      let best: BaseName | null = null;
      let bestDistance = max + 1;
      const bag = letterBag(folded);
      for (let length = folded.length - max; length <= folded.length + max; length++) {
        for (const n of byLength.get(length) ?? []) {
          const bound = Math.min(max, bestDistance - 1);
          // One edit changes the letters' counts by two at most.
          if (bagDistance(bag, bags.get(n) ?? bag) > 2 * bound) continue;
          const d = editDistance(folded, n.folded, bound);
          if (d < bestDistance) {
            best = n;
            bestDistance = d;
          }
        }
      }
      return best;
    },
    internalName: (defindex) => internal.get(defindex) ?? null,
  };
}

/**
 * The words left of `words` once each of `taken` is taken out once, in
 * order; null when one of `taken` is not there.
 */
export function takeWords(words: readonly string[], taken: readonly string[]): string[] | null {
  const left = [...words];
  for (const w of taken) {
    const at = left.indexOf(w);
    if (at < 0) return null;
    left.splice(at, 1);
  }
  return left;
}

/** Names whose first word starts as the search does first, then the fewest words, then the shortest (they are sorted so). */
function rank(found: readonly BaseName[], first: string): BaseName[] {
  const leading = found.filter((n) => (n.words[0] ?? '').startsWith(first));
  const others = found.filter((n) => !(n.words[0] ?? '').startsWith(first));
  const byWords = (a: BaseName, b: BaseName) => a.words.length - b.words.length;
  return [...leading.sort(byWords), ...others.sort(byWords)];
}

/** How many of each letter, digit and space a folded text holds (a–z, 0–9, the rest as one). */
function letterBag(text: string): Uint8Array {
  const bag = new Uint8Array(37);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const at = c >= 97 && c <= 122 ? c - 97 : c >= 48 && c <= 57 ? c - 22 : 36;
    bag[at] = Math.min(255, (bag[at] ?? 0) + 1);
  }
  return bag;
}

/** The sum of the differences of two bags' counts. */
function bagDistance(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return d;
}
