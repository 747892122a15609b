import { DROPPED, fold, normalise, readNormal, startsEscape, type NormalChar } from './key-normal.ts';

/**
 * Finding the API key in a text whatever its spelling: the text is read in
 * its normal form (key-normal.ts: escapes decoded, case folded, separators
 * dropped) and compared with the normal forms of the key itself, of its
 * base64 (at the three byte alignments it can have inside a longer encoded
 * value) and of its hex. Any run of KEY_RUN consecutive characters of one
 * of those forms counts as the key, so an echo cut short, broken by
 * dashes, or escaped only in part is found too.
 *
 * Linear and cheap: the last SEED normal characters are kept as one
 * integer (6 bits each, shifted in), tested against a 64 Ki-bit filter of
 * the key's seeds; only where a seed of the key stands is the text followed
 * further, to see whether a whole run does. Nothing is allocated per
 * character.
 */

/**
 * How many consecutive characters of the key's normal form count as the
 * key. A key is a long random string: 12 of its characters are 48 bits of
 * a hex key (62 of a base-36 one). A 20,000-trade answer holds some 10^7
 * positions and the key some 150 runs of this length across its forms, so
 * ordinary data matches one by chance about once in 10^5 such answers
 * (10^7 × 150 / 2^48); shorter runs would start to match ordinary IDs and
 * hashes. An echo that gives away fewer characters than this leaves most
 * of a key (32 characters or more) unknown.
 */
export const KEY_RUN = 12;

/** Characters of a seed: 5 × 6 bits fit a small integer, and few positions of other text pass. */
const SEED = 5;
const FILTER_BITS = 1 << 16;

export interface KeyForms {
  /** Characters a run must have: KEY_RUN, or the whole normal form of a shorter key. */
  readonly run: number;
  /** Characters of a seed (SEED, or fewer for a key shorter than that). */
  readonly seed: number;
  /** Normal forms of the key, its base64 and its hex (the last two only for a key of KEY_RUN characters or more). */
  readonly forms: readonly string[];
  /** Each seed of a form (its characters' symbols, 6 bits each) → where it stands: [form index, position]. */
  readonly seeds: ReadonlyMap<number, ReadonlyArray<readonly [number, number]>>;
  /** One bit per seed bucket: most positions are ruled out by this alone. */
  readonly filter: Uint8Array;
  /** A key with no letter or digit at all is looked for as written. */
  readonly verbatim: string | null;
}

/** What an ASCII character reads as on the fast path: a symbol (0–9 digits, 10–35 letters), NONE, or ESCAPE. */
const ESCAPE = -2;
/** DROPPED, bound here: the scan loop reads it for every character, and an imported binding can cost a lookup each time. */
const NONE = DROPPED;
const SYMBOLS = Int8Array.from({ length: 0x80 }, (_, c) => (startsEscape(c) ? ESCAPE : symbolOf(fold(c))));

/** 0–9 for a digit, 10–35 for a (folded) letter, DROPPED for anything else. */
function symbolOf(folded: number): number {
  if (folded === DROPPED) return DROPPED;
  return folded <= 0x39 ? folded - 0x30 : folded - 0x61 + 10;
}

export function keyForms(secret: string): KeyForms {
  const plain = normalise(secret);
  const run = Math.min(KEY_RUN, plain.length);
  const seed = Math.min(SEED, run);
  const bytes = Buffer.from(secret, 'utf8');
  const encoded = plain.length >= KEY_RUN ? [...base64Runs(bytes), bytes.toString('hex')].map(normalise) : [];
  const forms = [plain, ...encoded].filter((form) => run > 0 && form.length >= run);
  const seeds = new Map<number, Array<readonly [number, number]>>();
  const filter = new Uint8Array(FILTER_BITS / 8);
  for (const [f, form] of forms.entries()) {
    for (let p = 0; p + run <= form.length; p++) {
      let value = 0;
      for (let k = 0; k < seed; k++) value = (value << 6) | symbolOf(form.charCodeAt(p + k));
      seeds.set(value, [...(seeds.get(value) ?? []), [f, p]]);
      const b = bucket(value);
      filter[b >>> 3] = (filter[b >>> 3] ?? 0) | (1 << (b & 7));
    }
  }
  return { run, seed, forms, seeds, filter, verbatim: plain === '' ? secret : null };
}

/**
 * Where in `text` the key lies: [start, end) of each run, in `text`'s own
 * positions, in order, not overlapping; only the first when `firstOnly`
 * (enough to know that it is there). One pass.
 */
export function findKey(text: string, key: KeyForms, firstOnly = false): Array<[number, number]> {
  if (key.verbatim !== null) return findVerbatim(text, key.verbatim, firstOnly);
  if (text.length < key.run) return [];
  const scan = new KeyScan(text, key, firstOnly);
  scan.scanTo(text.length);
  return scan.found;
}

/**
 * The pass of `findKey`, able to stop after any position and go on from
 * there: what it has read of the characters before a stop (the seed, where
 * they started) is kept, so a key that lies across a stop is found as in
 * one pass, and the same runs are found however the text is cut.
 */
export class KeyScan {
  /** The runs found so far, as `findKey` gives them. */
  readonly found: Array<[number, number]> = [];
  private readonly mask: number;
  /** Where the last characters started, to say where a run does. */
  private readonly starts = new Int32Array(8);
  private readonly char: NormalChar = { code: 0, end: 0 };
  private at = 0;
  private seed = 0;
  private count = 0;
  private over = false;
  private readonly text: string;
  private readonly key: KeyForms;
  private readonly firstOnly: boolean;

  constructor(text: string, key: KeyForms, firstOnly = false) {
    this.text = text;
    this.key = key;
    this.firstOnly = firstOnly;
    this.mask = 2 ** (6 * key.seed) - 1;
    if (key.verbatim !== null) {
      // A key of punctuation alone is one indexOf pass: nothing to cut.
      this.found.push(...findVerbatim(text, key.verbatim, firstOnly));
      this.over = true;
    }
  }

  /** Reads on to raw position `to` at least (an escape read whole may end past it); true once the search is over. */
  scanTo(to: number): boolean {
    const { text, key, mask, starts, char, found } = this;
    const { run, seed: seedLength, filter, seeds } = key;
    const stop = Math.min(to, text.length);
    // The loop works on locals (the hot path) and puts them back.
    let i = this.at;
    let seed = this.seed;
    let count = this.count;
    let over = this.over || text.length < run;
    while (!over && i < stop) {
      const start = i;
      const raw = text.charCodeAt(i);
      let symbol = raw < 0x80 ? (SYMBOLS[raw] ?? NONE) : NONE;
      if (symbol === ESCAPE) {
        readNormal(text, i, char);
        symbol = symbolOf(char.code);
        i = char.end;
      } else {
        i++;
      }
      if (symbol === NONE) continue;
      seed = ((seed << 6) | symbol) & mask;
      starts[count & 7] = start;
      count++;
      if (count < seedLength) continue;
      const b = bucket(seed);
      if (((filter[b >>> 3] ?? 0) & (1 << (b & 7))) === 0) continue;
      const places = seeds.get(seed);
      if (places === undefined) continue;
      const { end, length } = follow(text, i, key, places);
      if (length < run) continue;
      found.push([starts[(count - seedLength) & 7] ?? 0, end]);
      if (this.firstOnly) over = true;
      i = end;
      seed = 0;
      count = 0;
    }
    this.at = i;
    this.seed = seed;
    this.count = count;
    this.over = over || i >= text.length;
    return this.over;
  }
}

/**
 * How far the forms that hold the seed just read (ending at raw position
 * `from`) go on matching the text: where the longest stretch ends and how
 * many characters it has, seed included. An echo of the whole key is one
 * run, not several.
 */
function follow(text: string, from: number, key: KeyForms, at: ReadonlyArray<readonly [number, number]>): { end: number; length: number } {
  let alive = at.map(([f, q]) => ({ form: key.forms[f] ?? '', next: q + key.seed }));
  let end = from;
  let length = key.seed;
  const char: NormalChar = { code: 0, end: 0 };
  for (let i = from; i < text.length; i = char.end) {
    readNormal(text, i, char);
    if (char.code === DROPPED) continue;
    alive = alive.filter((a) => a.form.charCodeAt(a.next) === char.code);
    if (alive.length === 0) break;
    for (const a of alive) a.next++;
    end = char.end;
    length++;
  }
  return { end, length };
}

function findVerbatim(text: string, secret: string, firstOnly: boolean): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let i = text.indexOf(secret); i !== -1; i = text.indexOf(secret, i + secret.length)) {
    found.push([i, i + secret.length]);
    if (firstOnly) break;
  }
  return found;
}

function bucket(seed: number): number {
  return (seed ^ (seed >>> 14)) & (FILTER_BITS - 1);
}

/**
 * The base64 characters that encode the key's bytes alone, at each of the
 * three byte alignments it can have inside a longer encoded value
 * ("user:key", a JSON document…). Padding and the characters shared with
 * neighbouring bytes are left out, so one run matches the key whatever
 * surrounds it. The URL-safe alphabet differs only in `+` and `/`, which
 * the normal form drops.
 */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    // Character i covers bits [6i, 6i + 6); the key's bits are [8·offset, 8·(offset + n)).
    runs.push(encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)));
  }
  return runs;
}
