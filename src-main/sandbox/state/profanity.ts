/**
 * The service filters profanity out of buy order notes ("Profanity is filtered
 * automatically"). A short word list stands in for the real one, enough that a
 * note the trader typed can come back different from what was sent.
 */
const WORDS = ['damn', 'crap', 'hell', 'bloody', 'scam', 'idiot'];
const PATTERN = new RegExp(`\\b(${WORDS.join('|')})\\b`, 'gi');

/** Each listed word, whole and in any case, becomes asterisks of the same length. */
export function filterProfanity(note: string): string {
  return note.replace(PATTERN, (word) => '*'.repeat(word.length));
}
