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

/** Endpoint names of the service's interface, as a message prefix ("create_listing: …"). */
const ENDPOINT_PREFIX = /^\s*([a-z]+(?:_[a-z]+)+):\s*/;
/** An endpoint named in brackets inside a sentence: "… for this outcome (create_listing)". */
const ENDPOINT_IN_BRACKETS = /\s*\(([a-z]+(?:_[a-z]+)+)\)/g;
/** The service's JSON answer quoted at the end of a message (": {…}" or ": […]"). */
const JSON_TAIL = /:?\s*([{[][\s\S]*)$/;
/** "(status 400)", "status 503", "(HTTP 502)". */
const STATUS = /\s*\(?\b(?:HTTP\s+)?status\s+(\d{3})\b\)?/gi;
/** D-Bus and similar error names (org.freedesktop.Secret.Error.IsLocked). */
const DOTTED_NAME = /\b(?:org|com|net|io)\.[A-Za-z]+(?:\.[A-Za-z]+)+\b/g;
/** Network and TLS codes: UND_ERR_SOCKET, ECONNRESET, ERR_TLS_CERT_ALTNAME_INVALID, CERT_HAS_EXPIRED, TimeoutError. */
const CODE = /\b(UND_ERR_[A-Z_]+|ERR_[A-Z_]+|E[A-Z]{3,}|[A-Z]+_[A-Z_]+|[A-Z][a-z]+Error)\b/g;

export function splitTechnical(message: string): Worded {
  const details: string[] = [];
  let text = message;

  const endpoint = ENDPOINT_PREFIX.exec(text);
  if (endpoint) {
    details.push(`Endpoint: ${endpoint[1]}`);
    text = text.slice(endpoint[0].length);
  }
  const json = JSON_TAIL.exec(text);
  if (json && looksLikeJson(json[1] ?? '')) {
    details.push(`Service answered: ${json[1]}`);
    text = text.slice(0, json.index);
  }
  text = text.replace(ENDPOINT_IN_BRACKETS, (_m, name: string) => {
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

/** Whether a tail of a message is a JSON value (the service's answer), not words in brackets. */
function looksLikeJson(tail: string): boolean {
  const t = tail.trim();
  if (!/^[{[]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    // Cut answers ("… {"success":false,"error":"ite…") still start like JSON.
    return /^[{[]\s*"/.test(t);
  }
}
