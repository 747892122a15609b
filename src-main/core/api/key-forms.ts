/**
 * Every way a server, a gateway or a proxy could plausibly spell the API key
 * back at us, for `redactSecret` to search. Two lists: forms whose case
 * matters (the key itself, base64), and forms written in hex digits, whose
 * case a server may choose either way (searched in text with ASCII letters
 * lowered).
 */
export interface KeyForms {
  readonly exact: readonly string[];
  readonly anyCase: readonly string[];
}

/** Base64 runs shorter than this could match ordinary text by chance; a real key gives far longer ones. */
const MIN_BASE64_RUN = 8;

export function keyForms(secret: string): KeyForms {
  const escaped = escapedForms(secret);
  const urls = escaped.flatMap((s) => [encodeURIComponent(s), new URLSearchParams({ k: s }).toString().slice(2), encodeURIComponent(encodeURIComponent(s))]);
  const lowerHex = urls.map((u) => u.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  const base64 = base64Runs(Buffer.from(secret, 'utf8'));
  const base64InUrls = base64.map((b) => encodeURIComponent(b));
  const exact = [...escaped, ...urls, ...lowerHex, ...base64, ...base64InUrls];

  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const anyCase = [hex, hex.replace(/../g, '%$&'), ...base64InUrls.filter((b) => b.includes('%')).map(asciiLower)];
  return { exact: longestFirst(exact), anyCase: longestFirst(anyCase) };
}

/**
 * The key raw; JSON-escaped once, twice and three times (an error body
 * quoted as a string inside another JSON body doubles the backslashes
 * before a `"`), also with `/` escaped and with every character as `\uXXXX`.
 */
function escapedForms(secret: string): string[] {
  const json = (s: string) => JSON.stringify(s).slice(1, -1);
  const escaped = [secret, json(secret), json(json(secret)), json(json(json(secret)))];
  escaped.push(json(secret).replaceAll('/', '\\/'));
  escaped.push([...secret].map((c) => [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join(''));
  return escaped;
}

/**
 * The base64 characters that encode the key's bytes alone, at each of the
 * three byte alignments it can have inside a longer encoded value
 * ("user:key", a JSON document…), in the standard and the URL-safe alphabet.
 * Padding and the characters shared with neighbouring bytes are left out, so
 * one run matches the key whatever surrounds it, padded or not.
 */
function base64Runs(bytes: Buffer): string[] {
  const runs: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]).toString('base64');
    // Character i covers bits [6i, 6i + 6); the key's bits are [8·offset, 8·(offset + n)).
    const run = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (run.length < MIN_BASE64_RUN) continue;
    runs.push(run, run.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return runs;
}

/** ASCII letters lowered, nothing else touched: the length stays the same, so positions carry over. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

function longestFirst(forms: string[]): string[] {
  return [...new Set(forms.filter((f) => f !== ''))].sort((x, y) => y.length - x.length);
}
