import type { ResponseHeaders } from './rate-headers.ts';
import type { Steps } from '../turn.ts';
import { holdsKeyInSlices, removeKey, SCAN_SLICE } from './redact.ts';

/**
 * A key the service echoed, taken out of its answer where the answer comes
 * in, before anything parses or keeps it: every string of a JSON answer
 * (object keys too) and every header. The trades, History, the exports,
 * the logs and the renderer all read what is left.
 */
export interface EchoedKeyFilter {
  /** Error and other body text with the key removed. */
  text(text: string): string;
  /**
   * The parsed JSON `value` of `raw`, with the key removed from each string
   * (changed in place); steps that yield between slices of SCAN_SLICE
   * characters, so a large answer is searched a slice a turn.
   */
  json(value: unknown, raw: string): Steps<unknown>;
  headers(headers: ResponseHeaders): ResponseHeaders;
  /** Whether any text passed in held the key. */
  readonly found: boolean;
}

export function echoedKeyFilter(secret: string): EchoedKeyFilter {
  let found = false;
  const clean = (text: string): string => {
    const result = removeKey(text, secret);
    if (result.found) found = true;
    return result.text;
  };
  return {
    text: clean,
    *json(value, raw) {
      // One pass over the whole answer: almost always it holds no key, and no string is looked at one by one.
      if (!(yield* holdsKeyInSlices(raw, secret))) return value;
      if (typeof value === 'string') return clean(value);
      yield* cleanStrings(value, clean);
      return value;
    },
    headers(headers) {
      const out: ResponseHeaders = {};
      for (const [name, value] of Object.entries(headers)) out[name] = Array.isArray(value) ? value.map(clean) : value === undefined ? value : clean(value);
      return out;
    },
    get found() {
      return found;
    },
  };
}

/**
 * Replaces, in place, every string in a parsed JSON value by
 * `clean(string)`, yielding after each SCAN_SLICE characters looked at; no
 * recursion, so no depth overflows the stack.
 */
function* cleanStrings(root: unknown, clean: (text: string) => string): Steps<void> {
  const stack: unknown[] = [root];
  let read = 0;
  const cleanCounted = (text: string) => {
    read += text.length;
    return clean(text);
  };
  while (stack.length > 0) {
    if (read >= SCAN_SLICE) {
      read = 0;
      yield;
    }
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'string') node[i] = cleanCounted(item);
        else if (typeof item === 'object' && item !== null) stack.push(item);
      }
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const name of Object.keys(record)) {
        const item = record[name];
        const cleanName = cleanCounted(name);
        const cleanItem = typeof item === 'string' ? cleanCounted(item) : item;
        if (cleanName !== name) delete record[name];
        if (cleanName !== name || cleanItem !== item) setOwn(record, cleanName, cleanItem);
        if (typeof item === 'object' && item !== null) stack.push(item);
      }
    }
  }
}

/** An own property, even one named `__proto__` (JSON.parse makes such; plain assignment would set the prototype instead). */
function setOwn(record: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(record, name, { value, writable: true, enumerable: true, configurable: true });
}
