import type { FieldIssue } from '../../src-shared/errors.ts';
import { groupThousands } from '../../src-shared/money.ts';

/**
 * The bridge's first check, before any schema: a payload must be plain data
 * (what JSON could hold: objects, lists, text, numbers, booleans, null) and
 * no deeper or bigger than the largest input the contract allows. Electron's
 * structured clone carries much more (typed arrays, maps, dates, cycles,
 * shared branches); each is refused here at once with one issue, whatever
 * its size: a 1 MiB typed array is one "not plain data", not a million
 * "unknown field" issues from the schema.
 */
export const PAYLOAD_LIMITS = {
  /** The contract's inputs are at most 4 levels deep (drafts:bulk's filter). */
  depth: 16,
  /**
   * Values in all (each object, list, key's value and element counts one):
   * the largest input, 100,000 complete listing creates, is about 900,000.
   */
  values: 1_000_000,
  /** Characters of text in all: far above any input's (a CSV file crosses in parts of at most a mebibyte). */
  textChars: 64 * 1024 * 1024,
} as const;

export type PayloadCheck = { ok: true; values: number } | { ok: false; issue: FieldIssue };

/**
 * Walks `input` once, stopping at the first limit crossed: the walk's cost
 * is bounded by the limits, not by what was sent (a cycle ends at the depth
 * limit, a tree of shared branches at the value limit).
 */
export function checkPayload(input: unknown, limits: typeof PAYLOAD_LIMITS = PAYLOAD_LIMITS): PayloadCheck {
  let values = 0;
  let textChars = 0;
  let problem = '';
  // Filled only on the way out of a failure, so a valid payload builds no paths.
  const failedAt: (string | number)[] = [];

  const fail = (message: string): false => {
    problem = message;
    return false;
  };

  const visit = (value: unknown, depth: number): boolean => {
    values += 1;
    if (values > limits.values) return fail(`is too large: more than ${groupThousands(limits.values)} values`);
    if (typeof value === 'string') {
      textChars += value.length;
      return textChars <= limits.textChars || fail(`is too large: more than ${groupThousands(limits.textChars)} characters of text`);
    }
    if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return true;
    if (typeof value !== 'object') return fail(`must be plain data (objects, lists, text, numbers), not a ${typeof value}`);
    if (!isPlain(value)) return fail(`must be plain data (objects, lists, text, numbers), not ${kindOf(value)}`);
    if (depth >= limits.depth) return fail(`is nested more than ${limits.depth} levels deep`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!visit(value[i], depth + 1)) {
          failedAt.push(i);
          return false;
        }
      }
      return true;
    }
    // Plain objects only (checked above), so `for…in` sees own keys alone.
    for (const key in value) {
      textChars += key.length;
      if (!visit(value[key], depth + 1)) {
        failedAt.push(key);
        return false;
      }
    }
    return true;
  };

  if (visit(input, 0)) return { ok: true, values };
  return { ok: false, issue: { field: failedAt.length === 0 ? '(root)' : failedAt.reverse().join('.'), message: problem } };
}

/** A list or an object as JSON could hold it (no class, no typed array): its fields are whatever was sent. */
function isPlain(value: object): value is unknown[] | { readonly [key: string]: unknown } {
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** "a Uint8Array of 1048576 bytes", "a Map": what arrived instead of plain data. */
function kindOf(value: object): string {
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (ArrayBuffer.isView(value)) return `a ${tag} of ${value.byteLength} bytes`;
  if (value instanceof ArrayBuffer) return `an ArrayBuffer of ${value.byteLength} bytes`;
  return `a ${tag}`;
}
