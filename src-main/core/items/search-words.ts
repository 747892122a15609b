import type { KnownItem } from './describe-sku.ts';

/**
 * The one normaliser of item search, for every screen: what a trader types
 * and the names items are found by are folded the same way, into words.
 *
 * Folding drops case, accents ("Übersaw" is "ubersaw"), apostrophes and
 * full stops ("Mann Co." is "mann co", "Collector's" is "collectors") and
 * reads every other mark as a space ("Field-Tested" is "field tested"). Then
 * the short forms traders write are spelled out ("pro ks" is "professional
 * killstreak", "aussie" is "australium", "non craft" is "noncraftable"), on
 * both sides, so a name and a search meet on the same words whatever their
 * order. See docs/search.md.
 */

/**
 * Moves on whenever folding or the short forms change: the store's index of
 * item words (store/name-index.ts) is then built afresh.
 */
export const SEARCH_WORDS_VERSION = 1;

/** Letters that do not come apart into a letter and an accent. */
const LETTERS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', þ: 'th' };

/** Typed text folded: lower case, no accents, apostrophes or full stops, other marks as single spaces. */
export function foldSearchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđþ]/g, (c) => LETTERS[c] ?? c)
    .replace(/['’‘`´ʼ.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Short forms and spellings traders use, each with the words it stands for.
 * A form of several words is matched before its parts ("pro ks" before "ks").
 */
export const ABBREVIATIONS: ReadonlyArray<readonly [string, string]> = [
  ['professional ks', 'professional killstreak'],
  ['prof ks', 'professional killstreak'],
  ['pro ks', 'professional killstreak'],
  ['pks', 'professional killstreak'],
  ['specialized ks', 'specialized killstreak'],
  ['specialised ks', 'specialized killstreak'],
  ['spec ks', 'specialized killstreak'],
  ['sks', 'specialized killstreak'],
  ['specialised', 'specialized'],
  ['basic ks', 'killstreak'],
  ['ks', 'killstreak'],
  ['aussie', 'australium'],
  ['aussies', 'australium'],
  ['non craftable', 'noncraftable'],
  ['non craft', 'noncraftable'],
  ['noncraft', 'noncraftable'],
  ['uncraftable', 'noncraftable'],
  ['uncraft', 'noncraftable'],
  ['nc', 'noncraftable'],
  ['unu', 'unusual'],
  ['fn', 'factory new'],
  ['mw', 'minimal wear'],
  ['ft', 'field tested'],
  ['ww', 'well worn'],
  ['bs', 'battle scarred'],
  ['buds', 'earbuds'],
];

/** The short forms as word lists, longest first, so the longest form at a place wins. */
const FORMS = ABBREVIATIONS
  .map(([form, words]) => ({ form: form.split(' '), words: words.split(' ') }))
  .sort((a, b) => b.form.length - a.form.length);

/** Words with every short form spelled out. */
export function spellOut(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const found = FORMS.find(({ form }) => form.every((w, k) => words[i + k] === w));
    if (found) {
      out.push(...found.words);
      i += found.form.length;
    } else {
      out.push(words[i] ?? '');
      i += 1;
    }
  }
  return out;
}

/** The most words a search is read for: more narrow nothing a trader could mean. */
const MAX_WORDS = 16;

/**
 * The words of a search as the trader typed it, folded and spelled out, in
 * the order typed. A lone "the" is dropped when other words are typed: names
 * are kept without it ("The Team Captain" is "Team Captain").
 */
export function searchWords(text: string): string[] {
  const folded = foldSearchText(text);
  if (folded === '') return [];
  const words = spellOut(folded.split(' '));
  const kept = words.length > 1 ? words.filter((w) => w !== 'the') : words;
  return kept.slice(0, MAX_WORDS);
}

/** Folded words of a name; a hyphenated word also as one word ("Ap-Sap" is found by "ap sap" and "apsap"). */
function nameWords(name: string): string[] {
  const words = spellOut(foldSearchText(name).split(' ').filter((w) => w !== ''));
  if (!name.includes('-')) return words;
  return [...words, ...spellOut(foldSearchText(name.replace(/-/g, '')).split(' '))];
}

/**
 * The words an item is found by: its name's, and the parts a name does not
 * print: its quality ("unusual" for a "Burning Flames Team Captain",
 * "unique" for a plain one), "strange" for a Strange Unusual, "craftable"
 * for a craftable one. Each word once.
 */
export function itemWords(item: Pick<KnownItem, 'name' | 'quality' | 'strange' | 'effect' | 'craftable'>): string[] {
  const words = [...nameWords(item.name), ...nameWords(item.quality.name)];
  if (item.strange) words.push('strange');
  if (item.effect !== null) words.push(...nameWords(item.effect.name));
  if (item.craftable) words.push('craftable');
  return [...new Set(words)].filter((w) => w !== '');
}
