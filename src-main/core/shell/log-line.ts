import { redactSecret, truncate } from '../api/redact.ts';

/**
 * What may go into a log line. The log is what a trader sends with a bug
 * report, so it must never carry the API key, and a value from the network
 * (an item name, a server's error text) must not be able to forge lines or
 * hide text: line breaks, terminal escapes and bidi overrides are written
 * as visible `\u….` escapes. Values are cut to a bounded size, so one event
 * is one line of reasonable length.
 */

/** Field names whose values are never written, whatever they hold. */
const SECRET_FIELD = /api[-_]?key|authori[sz]ation|secret|password|passphrase|token|cookie/i;
/** What a secret-named field is written as. */
const HIDDEN = '[redacted]';
/** C0 and C1 controls, DEL, line and paragraph separators, bidi embeddings, overrides and isolates. */
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Longest string written; longer ones are cut with a marker. */
export const MAX_LOG_TEXT = 2_000;
const MAX_ENTRIES = 50;
const MAX_DEPTH = 4;

/** The key removed (in the forms a server could echo it), unsafe characters escaped, the length bounded. */
export function cleanLogText(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) out = redactSecret(out, secret);
  out = out.replace(UNSAFE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return truncate(out, MAX_LOG_TEXT);
}

/**
 * A copy of `value` safe to write: strings cleaned, secret-named fields
 * replaced, errors reduced to what helps (name, kind, code, message, the top
 * of the stack), depth and breadth bounded. Never throws.
 */
export function cleanLogValue(value: unknown, secrets: Iterable<string>, depth = 0): unknown {
  const list = [...secrets];
  if (typeof value === 'string') return cleanLogText(value, list);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return `[${typeof value}]`;
  if (depth >= MAX_DEPTH) return '[…]';
  if (value instanceof Error) return cleanLogValue(errorFields(value), list, depth);
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ENTRIES).map((v) => cleanLogValue(v, list, depth + 1));
    return value.length > MAX_ENTRIES ? [...items, `… ${value.length - MAX_ENTRIES} more`] : items;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const [key, v] of Object.entries(value)) {
    if (count++ >= MAX_ENTRIES) {
      out['…'] = 'more fields left out';
      break;
    }
    out[cleanLogText(key, list)] = SECRET_FIELD.test(key) ? HIDDEN : cleanLogValue(v, list, depth + 1);
  }
  return out;
}

function errorFields(error: Error): Record<string, unknown> {
  const extra = error as Error & { kind?: unknown; code?: unknown; status?: unknown };
  return {
    name: error.name,
    ...(extra.kind === undefined ? {} : { kind: extra.kind }),
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.status === undefined ? {} : { status: extra.status }),
    message: error.message,
    // Where it came from, not the whole trace: five frames are enough to find it.
    stack: (error.stack ?? '').split('\n').slice(1, 6).map((l) => l.trim()),
  };
}
