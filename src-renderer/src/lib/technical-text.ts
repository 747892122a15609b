import { isEndpoint } from './endpoint-words.ts';

/**
 * Words for the trader, with the technical part set apart. Messages main
 * writes (an apply's reason, a refusal kept in the journal, a client error)
 * often carry an endpoint name, an HTTP status, a network error code or the
 * service's JSON answer: useful in a bug report, noise in a sentence. This
 * takes those fragments out of the text and lists them as details, so the
 * screen shows the words and a "Details" disclosure shows the rest.
 */
export interface Worded {
  /** What the trader reads: no JSON, no bare status, no error code. */
  readonly text: string;
  /** The technical fragments taken out, one per line ("HTTP status: 400"). */
  readonly details: readonly string[];
}

/** An endpoint of the service as a prefix ("create_listing: …", "…: edit_listing: …") or in brackets ("(create_listing)"). */
const ENDPOINT_PREFIX = /(^|[:;·]\s*)([a-z]+(?:_[a-z]+)+):\s*/g;
const ENDPOINT_IN_BRACKETS = /\s*\(([a-z]+(?:_[a-z]+)+)\)/g;
/** "(status 400)", "status 503", "(HTTP 502)". */
const STATUS = /\s*\(?\b(?:HTTP\s+)?status\s+(\d{3})\b\)?/gi;
/** D-Bus and similar error names (org.freedesktop.Secret.Error.IsLocked). */
const DOTTED_NAME = /\b(?:org|com|net|io)\.[A-Za-z]+(?:\.[A-Za-z]+)+\b/g;
/** Network and TLS codes: UND_ERR_SOCKET, ECONNRESET, ERR_TLS_CERT_ALTNAME_INVALID, CERT_HAS_EXPIRED, TimeoutError. */
const CODE = /\b(UND_ERR_[A-Z_]+|ERR_[A-Z_]+|E[A-Z]{3,}|[A-Z]+_[A-Z_]+|[A-Z][a-z]+Error)\b/g;

export function splitTechnical(message: string): Worded {
  const details: string[] = [];
  let text = message;

  text = text.replace(ENDPOINT_PREFIX, (m, before: string, name: string) => {
    if (!isEndpoint(name)) return m;
    details.push(`Endpoint: ${name}`);
    return before;
  });
  for (let json = jsonIn(text); json !== null; json = jsonIn(text)) {
    details.push(`Service answered: ${text.slice(json.start, json.end)}`);
    // The ": " that introduced it goes too.
    const start = /:?\s*$/.exec(text.slice(0, json.start))?.index ?? json.start;
    text = text.slice(0, start) + text.slice(json.end);
  }
  text = text.replace(ENDPOINT_IN_BRACKETS, (m, name: string) => {
    if (!isEndpoint(name)) return m;
    details.push(`Endpoint: ${name}`);
    return '';
  });
  text = text.replace(STATUS, (_m, status: string) => {
    details.push(`HTTP status: ${status}`);
    return '';
  });
  text = text.replace(DOTTED_NAME, (name: string) => {
    details.push(`Code: ${name}`);
    return '';
  });
  text = text.replace(CODE, (code: string) => {
    details.push(`Code: ${code}`);
    return '';
  });
  // What taking fragments out leaves behind: empty brackets, doubled spaces, a dangling separator.
  text = text
    .replace(/\(\s*[,;:]?\s*\)/g, '')
    .replace(/\s+([,;:.)])/g, '$1')
    .replace(/\(\s+/g, '(')
    .replace(/\s{2,}/g, ' ')
    .replace(/^[\s,;:]+|[\s,;:]+$/g, '');
  return { text, details };
}

/**
 * Where the service's JSON answer lies in a message: from a `{` (or a `[`)
 * followed by a quoted key, to its matching bracket, or to the end when the
 * answer was cut short. Null when there is none.
 */
export function jsonIn(text: string): { start: number; end: number } | null {
  const open = /[{[]\s*"/.exec(text);
  if (open === null) return null;
  let depth = 0;
  let inString = false;
  for (let i = open.index; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return { start: open.index, end: i + 1 };
    }
  }
  return { start: open.index, end: text.length };
}
