import { HIDDEN_CONTROL_CHARS } from '../../src-shared/fields.ts';

/**
 * Text from outside (an ID the trader sent, a message built around one, an
 * error from a library) made fit for a log line or the screen: cut to a
 * length first, so a 10 MB input costs no more than a short one, then every
 * character that could break a line, drive a terminal or reorder what
 * follows (controls, line separators, text direction controls, halves of
 * surrogate pairs) shown as U+FFFD instead.
 */
const UNPRINTABLE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${HIDDEN_CONTROL_CHARS}]|\\p{Cs}`, 'gu');

/** `text` cut to `max` characters (with a marker saying how many more there were) and cleaned. */
export function printable(text: string, max: number): string {
  return truncate(text, max).replace(UNPRINTABLE, '\uFFFD');
}

/** Cuts `text` to `max` characters with a marker. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
