/**
 * Text brought to the form the API key is looked for in, whatever its
 * spelling: escapes decoded (JSON `\uXXXX` and `\xXX`, percent-encoding,
 * HTML character references; nested too, as `%255C`, `\\u0041` and
 * `&amp;#65;` are), ASCII letters lowered, and everything else that is not
 * an ASCII letter or digit dropped: separators, whitespace, punctuation,
 * `\n`-style escapes. A key is printable ASCII (the client sends no other),
 * so nothing dropped can tell one key from another in a way that matters
 * here. The key's own normal form is made by the same function.
 */

/** What a character reads as when it is not a letter or a digit: it is dropped. */
export const DROPPED = -1;

/** Where one normal character ends in the raw text, and what it is (DROPPED or a lowered letter or digit). */
export interface NormalChar {
  code: number;
  end: number;
}

const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const AMPERSAND = 0x26;
const SPACE = 0x20;
/** `\n`, `\r`, `\t`, `\b`, `\f`: a line break or blank, not the letter after the backslash. */
const CONTROL_ESCAPES = new Set([0x6e, 0x72, 0x74, 0x62, 0x66]);
/** An escape decoded to `%`, `\` or `&` may start another (`%255C` → `%5C` → `\`); this deep is plenty. */
const MAX_NESTING = 4;
/** Named references that decode to what can start another escape; other names are punctuation at most. */
const NAMED: ReadonlyMap<string, number> = new Map([
  ['amp', AMPERSAND], ['percnt', PERCENT], ['bsol', BACKSLASH],
  ...['quot', 'apos', 'lt', 'gt', 'nbsp', 'sol', 'colon', 'equals', 'plus', 'num', 'lowbar', 'hyphen', 'dash', 'period', 'comma', 'semi',
    'excl', 'quest', 'commat', 'ast', 'lpar', 'rpar', 'tilde', 'verbar', 'dollar', 'lsqb', 'rsqb', 'lcub', 'rcub']
    .map((name): [string, number] => [name, SPACE]),
]);
const MAX_NAME = 6;

/** A lowered ASCII letter or digit, or DROPPED. */
export function fold(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? code : DROPPED;
}

/** Whether the character at a raw position may start an escape (the slow path of a scan). */
export function startsEscape(code: number): boolean {
  return code === BACKSLASH || code === PERCENT || code === AMPERSAND;
}

/** The escape or character at `i`, decoded and folded, into `out`. */
export function readNormal(text: string, i: number, out: NormalChar): void {
  let code = text.charCodeAt(i);
  let end = i + 1;
  for (let depth = 0; depth < MAX_NESTING && startsEscape(code); depth++) {
    const decoded = code === PERCENT ? percentEscape(text, end) : code === BACKSLASH ? backslashEscape(text, end) : entity(text, end);
    if (decoded === null) break;
    [code, end] = decoded;
  }
  out.code = fold(code);
  out.end = end;
}

/** The normal form of `text` as a string (the key's, for one). */
export function normalise(text: string): string {
  const char: NormalChar = { code: 0, end: 0 };
  let out = '';
  for (let i = 0; i < text.length; i = char.end) {
    readNormal(text, i, char);
    if (char.code !== DROPPED) out += String.fromCharCode(char.code);
  }
  return out;
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/** `count` hex digits at `at` as a number, or -1. */
function hexAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k++) {
    const digit = hexDigit(text.charCodeAt(at + k));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** After a `%`: two hex digits. */
function percentEscape(text: string, at: number): [number, number] | null {
  const value = hexAt(text, at, 2);
  return value < 0 ? null : [value, at + 2];
}

/**
 * After a `\` (and any more: JSON quoted in JSON doubles them): `uXXXX`,
 * `xXX`, a control escape (a blank), or the escaped character itself
 * (`\"`, `\/`).
 */
function backslashEscape(text: string, at: number): [number, number] {
  let p = at;
  while (text.charCodeAt(p) === BACKSLASH) p++;
  if (p >= text.length) return [SPACE, p];
  const next = text.charCodeAt(p);
  if (next === 0x75) {
    const value = hexAt(text, p + 1, 4);
    if (value >= 0) return [value, p + 5];
  } else if (next === 0x78) {
    const value = hexAt(text, p + 1, 2);
    if (value >= 0) return [value, p + 3];
  } else if (CONTROL_ESCAPES.has(next)) {
    return [SPACE, p + 1];
  }
  return [next, p + 1];
}

/** After a `&`: `#NN;`, `#xHH;` (the `;` may be missing, as browsers allow) or a known name with its `;`. */
function entity(text: string, at: number): [number, number] | null {
  if (text.charCodeAt(at) === 0x23) {
    const hex = (text.charCodeAt(at + 1) | 0x20) === 0x78;
    const start = hex ? at + 2 : at + 1;
    let p = start;
    let value = 0;
    for (; p - start < 7; p++) {
      const digit = hex ? hexDigit(text.charCodeAt(p)) : decimalDigit(text.charCodeAt(p));
      if (digit < 0) break;
      value = value * (hex ? 16 : 10) + digit;
    }
    if (p === start) return null;
    return [value, text.charCodeAt(p) === 0x3b ? p + 1 : p];
  }
  let p = at;
  while (p - at < MAX_NAME && fold(text.charCodeAt(p)) >= 0x61) p++;
  if (p === at || text.charCodeAt(p) !== 0x3b) return null;
  const code = NAMED.get(text.slice(at, p).toLowerCase());
  return code === undefined ? null : [code, p + 1];
}

function decimalDigit(code: number): number {
  return code >= 0x30 && code <= 0x39 ? code - 0x30 : -1;
}
