/**
 * How a CSV file crosses the bridge: in parts, never as one text. A 33 MB
 * file sent as one message held the data worker while it was copied in and
 * kept all of it in memory until the import ended; parts of a megabyte, read
 * as they arrive, keep both bounded whatever the file's size. Plain code, no
 * zod: the renderer sends with these, the contract checks with them.
 */

/**
 * What a sender puts in one part: this many bytes of a file or characters
 * of pasted text. Decoding never makes more characters than bytes (plus the
 * few bytes of a character cut at the part before), so a part of a file
 * stays inside `CSV_PART_MAX_CHARS` too.
 */
export const CSV_PART_SIZE = 1_000_000;

/** The most characters one part may hold (the contract refuses more). */
export const CSV_PART_MAX_CHARS = 1024 * 1024;

/** The most characters a whole file may hold: the import refuses a file past it. */
export const CSV_IMPORT_MAX_CHARS = 50_000_000;

/** One part of a file to send, and how far into the file it ends (0 to 1, for progress). */
export interface CsvPart {
  /** The part's number in its file, from 1: main refuses a part that is not the next. */
  readonly seq: number;
  readonly text: string;
  readonly last: boolean;
  readonly done: number;
}

/**
 * Pasted text cut into parts, at least one (an empty text is one empty part,
 * which the import answers "the file is empty"), never between the two
 * halves of a character outside the Basic Multilingual Plane.
 */
export function* textParts(text: string, size = CSV_PART_SIZE): Generator<CsvPart> {
  let at = 0;
  let seq = 0;
  do {
    let end = Math.min(text.length, at + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && end - 1 > at && code >= 0xd800 && code <= 0xdbff) end -= 1;
    seq += 1;
    yield { seq, text: text.slice(at, end), last: end >= text.length, done: text.length === 0 ? 1 : end / text.length };
    at = end;
  } while (at < text.length);
}
