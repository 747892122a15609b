/**
 * A service that hands the API key back: in an error, in a header, inside
 * the trades it answers. Careless gateways, debug middleware and support
 * tooling do it, each in its own spelling. The knobs of faults.ts choose a
 * spelling from KEY_SPELLINGS; tests run through all of them.
 */

const json = (text: string) => JSON.stringify(text).slice(1, -1);
const code = (c: string) => c.charCodeAt(0);
const hex2 = (c: string) => code(c).toString(16).padStart(2, '0');
const unicode = (c: string) => `\\u${code(c).toString(16).padStart(4, '0')}`;
const percent = (c: string) => `%${hex2(c).toUpperCase()}`;
const everyNth = (n: number, escape: (c: string) => string) => (key: string) =>
  [...key].map((c, i) => (i % n === 0 ? escape(c) : c)).join('');
const groups = (size: number, between: string) => (key: string) => key.match(new RegExp(`.{1,${size}}`, 'gs'))?.join(between) ?? key;
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const thirds = (key: string): [string, string, string] => {
  const a = Math.floor(key.length / 3);
  return [key.slice(0, a), key.slice(a, 2 * a), key.slice(2 * a)];
};

/** Every way the simulator can spell the key back: a name for each, the spelling of a key under it. */
export const KEY_SPELLINGS = {
  raw: (key: string) => key,
  upperCase: (key: string) => key.toUpperCase(),
  lowerCase: (key: string) => key.toLowerCase(),
  mixedCase: (key: string) => [...key].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join(''),
  jsonUnicode: (key: string) => [...key].map(unicode).join(''),
  jsonUnicodeUpperHex: (key: string) => [...key].map((c) => unicode(c).toUpperCase().replace('\\U', '\\u')).join(''),
  jsonUnicodePartly: everyNth(2, unicode),
  /** The `\u` escapes escaped again: a JSON error quoted as a string inside another. */
  jsonUnicodeTwice: (key: string) => json([...key].map(unicode).join('')),
  percentEncoded: (key: string) => [...key].map(percent).join(''),
  percentEncodedLowerHex: (key: string) => [...key].map((c) => `%${hex2(c)}`).join(''),
  percentEncodedPartly: everyNth(3, percent),
  percentEncodedTwice: (key: string) => [...key].map((c) => `%25${hex2(c).toUpperCase()}`).join(''),
  htmlDecimal: (key: string) => [...key].map((c) => `&#${code(c)};`).join(''),
  htmlHex: (key: string) => [...key].map((c) => `&#x${hex2(c)};`).join(''),
  /** HTML-escaped twice, as a template that escapes already escaped text gives it. */
  htmlTwice: (key: string) => [...key].map((c) => `&amp;#${code(c)};`).join(''),
  dashed: groups(4, '-'),
  spaced: groups(4, ' '),
  wrappedOverLines: groups(8, '\r\n'),
  /** A support tool that shows the first 16 characters. */
  first16: (key: string) => key.slice(0, 16),
  /** …and one that shows the last 16, in capitals. */
  last16UpperCase: (key: string) => `...${key.slice(-16).toUpperCase()}`,
  inSentence: (key: string) => `The key ${key} may not be used from this address.`,
  quoted: (key: string) => `"${key}"`,
  inUrlQuery: (key: string) => `https://market.invalid/api/dev/get_balance?api_key=${encodeURIComponent(key)}&page=2`,
  base64: (key: string) => base64(key),
  basicAuth: (key: string) => `Basic ${base64(`desk:${key}`)}`,
  base64UrlOfJson: (key: string) => Buffer.from(JSON.stringify({ sub: 'desk', key }), 'utf8').toString('base64url'),
  hexUpperCase: (key: string) => Buffer.from(key, 'utf8').toString('hex').toUpperCase(),
  /** Each third written another way: percent-encoded, `\u`-escaped in capitals, HTML references. */
  mixedEscapes: (key: string) => {
    const [a, b, c] = thirds(key);
    return [[...a].map(percent).join(''), [...b.toUpperCase()].map(unicode).join(''), [...c].map((ch) => `&#${code(ch)};`).join('')].join('');
  },
} as const satisfies Record<string, (key: string) => string>;

export type KeySpelling = keyof typeof KEY_SPELLINGS;

export const KEY_SPELLING_NAMES = Object.keys(KEY_SPELLINGS) as KeySpelling[];

/** The fields of a pending trade the key can be echoed in. */
export type TradeEchoField = 'name' | 'status' | 'verification_code';

interface EchoReply {
  body: unknown;
}

/** An error reply whose message quotes the key in `spelling`. */
export function withKeyInError<R extends EchoReply>(reply: R, key: string, spelling: KeySpelling): R {
  const body = typeof reply.body === 'object' && reply.body !== null ? (reply.body as Record<string, unknown>) : {};
  const error = typeof body.error === 'string' ? body.error : 'refused';
  return { ...reply, body: { ...body, error: `${error} (request key: ${KEY_SPELLINGS[spelling](key)})` } };
}

/** A header quoting the key in `spelling`, as debug middleware adds; line breaks become spaces (a header is one line). */
export function keyEchoHeader(key: string, spelling: KeySpelling): Record<string, string> {
  return { 'X-Debug-Auth': `x-api-key=${KEY_SPELLINGS[spelling](key).replace(/[\r\n]+/g, ' ')}` };
}

/** Pending trades whose chosen fields (every item's name; the trade's status and verification code) are the key in `spelling`. */
export function withKeyInTrades(body: unknown, key: string, spelling: KeySpelling, fields: readonly TradeEchoField[]): unknown {
  if (!Array.isArray(body)) return body;
  const echo = KEY_SPELLINGS[spelling](key);
  return body.map((trade: Record<string, unknown>) => ({
    ...trade,
    ...(fields.includes('status') ? { status: echo } : {}),
    ...(fields.includes('verification_code') ? { verification_code: echo } : {}),
    ...(fields.includes('name') && Array.isArray(trade.items)
      ? { items: trade.items.map((item: unknown) => ({ ...(item as object), name: echo })) }
      : {}),
  }));
}

/** An error reply that quotes the key the request carried: raw, inside a JSON error quoted as a string (escaped twice), and URL-encoded. */
export function echoingKey<R extends EchoReply>(reply: R, key: string): R {
  const body = typeof reply.body === 'object' && reply.body !== null ? reply.body : {};
  const upstream = JSON.stringify({ error: 'upstream refused', key });
  return { ...reply, body: { ...body, key, upstream, help: `https://sandbox.invalid/keys?k=${encodeURIComponent(key)}` } };
}

/** An error reply that quotes the key encoded: base64 at two alignments, URL-safe, hex, and wrapped over lines. */
export function echoingKeyEncoded<R extends EchoReply>(reply: R, key: string): R {
  const body = typeof reply.body === 'object' && reply.body !== null ? reply.body : {};
  const basic = Buffer.from(`desk:${key}`).toString('base64');
  const urlSafe = Buffer.from(`k=${key}`).toString('base64url');
  const hex = Buffer.from(key).toString('hex').toUpperCase();
  const wrapped = Buffer.from(key).toString('base64').replace(/.{12}/g, '$&\r\n');
  return { ...reply, body: { ...body, authorization: `Basic ${basic}`, trace: urlSafe, key_hex: hex, pem: wrapped } };
}
