import type { SerializedApiError } from '../api/errors.ts';

/**
 * Reading refusals. Which items of a refused batch the refusal is about. The interface does not
 * say how the service names them, so every way seen is read: a path
 * (`items.3.price`), a bracket (`items[3]`), or an identifier of an item in
 * the words ("asset 123 already listed", "no listing lst_9", "no buy order
 * for 5021;6"). Taking those items out at once costs one request; halving
 * the batch down to them, the last resort, costs a dozen.
 */

/** Identifiers a refusal may name an item by, in the order the request fields are checked. */
const ID_FIELDS = ['asset_id', 'listing_id', 'sku'] as const;

/**
 * Short numbers in a refusal are far likelier amounts or counts than the
 * platform's asset IDs (ten digits and more), so a numeric ID shorter than
 * this is never matched in the words.
 */
const MIN_NUMERIC_ID_DIGITS = 6;

/** What separates words in a refusal; `;` is not among them (it is inside SKUs). */
const SEPARATORS = /[\s"'`,:()[\]{}<>=]+/;

/**
 * Indexes (into `items`, ascending) of the items the refusal names; empty
 * when it names none of them, or names an index the batch does not have.
 */
export function refusedItems(error: SerializedApiError, items: readonly unknown[]): number[] {
  const byIndex = namedIndexes(error);
  if (byIndex.size > 0) {
    return [...byIndex].every((i) => i < items.length) ? [...byIndex].sort((a, b) => a - b) : [];
  }
  const words = new Set(error.message.split(SEPARATORS).map((w) => w.replace(/\.+$/, '')));
  const named: number[] = [];
  items.forEach((item, index) => {
    if (identifiersOf(item).some((id) => words.has(id))) named.push(index);
  });
  return named;
}

function namedIndexes(error: SerializedApiError): Set<number> {
  const found = new Set<number>();
  for (const m of error.message.matchAll(/\bitems(?:\.(\d+)\b|\[(\d+)\])/g)) found.add(Number(m[1] ?? m[2]));
  for (const issue of error.issues ?? []) if (issue.item !== undefined) found.add(issue.item);
  return found;
}

function identifiersOf(item: unknown): string[] {
  if (typeof item !== 'object' || item === null) return [];
  const fields = item as Record<string, unknown>;
  const ids: string[] = [];
  for (const field of ID_FIELDS) {
    const value = fields[field];
    if (typeof value !== 'string' || value === '') continue;
    if (/^\d+$/.test(value) && value.length < MIN_NUMERIC_ID_DIGITS) continue;
    ids.push(value);
  }
  return ids;
}

/** A refusal that says what it names is not (or no longer) on the service: unknown, sold, deleted. */
export function saysGone(message: string): boolean {
  return /\b(no (listing|buy order)|not found|unknown (listing|asset|sku|buy order)|does ?n[o']t exist|no longer|is (sold|cancelled|inactive|deleted|gone|removed)|has been (sold|deleted|removed|cancelled))\b/i.test(message);
}

/** A refusal that says the item already stands: evidence that an earlier create went through. */
export function saysAlreadyExists(message: string): boolean {
  return /\b(already (listed|exists|stands|has)|duplicate)\b/i.test(message);
}
