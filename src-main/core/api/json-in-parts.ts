import type { Steps } from '../turn.ts';

/**
 * JSON.parse of a large list, in parts. JSON.parse cannot stop part way, and
 * a list of 20,000 trades (14 MB) holds the event loop ~50 ms in it. An
 * answer that is a list is parsed instead a group of its elements at a time:
 * one pass finds where each top-level element ends (a comma or the closing
 * bracket outside any string, at depth one), SCAN_PART characters a step;
 * then each group of elements of about PARSE_PART characters is handed to
 * JSON.parse, a step each.
 *
 * The result is JSON.parse's or nothing: anything that is not a list, or a
 * text the pass finds malformed, or a group that parses to another count of
 * elements than the pass found, is handed to JSON.parse whole, so its value
 * or its SyntaxError is exactly JSON.parse's.
 */

/** Characters the boundary pass reads a step: a few milliseconds. */
export const SCAN_PART = 1024 * 1024;
/** Characters of elements parsed a step: a few milliseconds. */
export const PARSE_PART = 512 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

export function* parseJsonInParts(text: string): Steps<unknown> {
  const bounds = yield* listBounds(text);
  if (bounds === null) return JSON.parse(text) as unknown;
  const list: unknown[] = [];
  // bounds[0] is the opening bracket, the last one the closing bracket, the others the commas between elements.
  for (let first = 0; first < bounds.length - 1; ) {
    let last = first + 1;
    while (last < bounds.length - 1 && bounds[last]! - bounds[first]! < PARSE_PART) last++;
    const group = JSON.parse(`[${text.slice(bounds[first]! + 1, bounds[last])}]`) as unknown[];
    const expected = last - first;
    // `[]` and `[ ]` hold no element where the pass counts one empty one; any other difference is malformed.
    const empty = bounds.length === 2 && group.length === 0;
    if (group.length !== expected && !empty) return JSON.parse(text) as unknown;
    for (const element of group) list.push(element);
    first = last;
    if (first < bounds.length - 1) yield;
  }
  return list;
}

/**
 * Where the top-level list of `text` opens, where each of its elements ends
 * and where it closes; null when the text is not one list or is malformed.
 */
function* listBounds(text: string): Steps<number[] | null> {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_ARRAY) return null;
  const bounds = [i];
  let depth = 0;
  let nextYield = SCAN_PART;
  for (; i < text.length; i++) {
    if (i >= nextYield) {
      nextYield += SCAN_PART;
      yield;
    }
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = stringEnd(text, i);
      if (i < 0) return null;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) {
        if (code !== CLOSE_ARRAY) return null;
        bounds.push(i);
        return skipSpace(text, i + 1) === text.length ? bounds : null;
      }
      if (depth < 0) return null;
    } else if (code === COMMA && depth === 1) {
      bounds.push(i);
    }
  }
  return null;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** Past JSON's own whitespace (space, tab, line feed, carriage return) from `from`. */
function skipSpace(text: string, from: number): number {
  let i = from;
  for (let code = text.charCodeAt(i); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = text.charCodeAt(++i));
  return i;
}
