import { describe, expect, it } from 'vitest';
import { REDACTED, TransportError, redactSecret, safeCause, truncate } from '../../../src-main/core/api/redact.ts';

describe('redaction', () => {
  it('removes the key in raw, JSON-escaped and URL-encoded forms', () => {
    const key = 'k"e/y+1';
    const text = `raw ${key} json ${JSON.stringify(key)} url ${encodeURIComponent(key)}`;
    const out = redactSecret(text, key);
    expect(out).not.toContain(key);
    expect(out).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(out).not.toContain(encodeURIComponent(key));
    expect(out.split(REDACTED)).toHaveLength(4);
  });

  it('removes a key that holds a quote in every form a server can echo it: JSON inside JSON, URL-encoded, mixed', () => {
    const key = 'k"e/y+1\\z';
    const json1 = JSON.stringify(key).slice(1, -1);
    const json2 = JSON.stringify(json1).slice(1, -1);
    const json3 = JSON.stringify(json2).slice(1, -1);
    const forms = [
      key,
      json1,
      json2, // an error body quoted as a string inside another JSON body
      json3,
      encodeURIComponent(key),
      encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()), // lower-case hex digits
      new URLSearchParams({ k: key }).toString().slice(2), // form encoding
      encodeURIComponent(encodeURIComponent(key)), // encoded twice
      encodeURIComponent(json1), // a JSON body in a query string
      [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''), // every character \u-escaped
      json1.replace('/', '\\/'), // PHP's JSON, which escapes the slash too
    ];
    // A gateway's error body that quotes the service's own JSON error as a string.
    const body = JSON.stringify({ error: JSON.stringify({ message: `bad key ${key}` }) });
    const out = redactSecret(`${forms.join(' | ')} || ${body}`, key);
    for (const form of forms) expect(out, form).not.toContain(form);
    expect(out.split(REDACTED)).toHaveLength(forms.length + 2);
    const [, redactedBody] = out.split(' || ');
    expect(JSON.parse(JSON.parse(redactedBody ?? '').error)).toEqual({ message: `bad key ${REDACTED}` });
    // Nothing but the key is touched.
    expect(redactSecret('k"e/y+1 and z, %22 and \\u0022', key)).toBe('k"e/y+1 and z, %22 and \\u0022');
  });

  it('leaves text alone without a key', () => {
    expect(redactSecret('abc', null)).toBe('abc');
    expect(redactSecret('abc', '')).toBe('abc');
  });

  it('truncates with a marker', () => {
    expect(truncate('abcdef', 10)).toBe('abcdef');
    expect(truncate('abcdef', 2)).toBe('ab… (4 more characters)');
  });

  it('keeps only name, code and a redacted message of a cause', () => {
    const original = Object.assign(new Error('header x-api-key: SEKRET failed'), {
      code: 'UND_ERR_SOCKET',
      headers: { 'x-api-key': 'SEKRET' },
      socket: { remote: 'x' },
    });
    const safe = safeCause(original, 'SEKRET');
    expect(safe).toBeInstanceOf(TransportError);
    expect(safe.code).toBe('UND_ERR_SOCKET');
    expect(safe.message).toBe(`header x-api-key: ${REDACTED} failed`);
    expect(Object.keys(safe).sort()).toEqual(['code', 'name']);
    expect(safe.cause).toBeUndefined();
    expect(safeCause('plain', null).message).toBe('plain');
  });

  describe('the key encoded', () => {
    const key = 'f3a9c2e51b84d06e7a1c0b9d8e2f4a6c';
    const b64 = (prefix: string) => Buffer.from(prefix + key).toString('base64');
    const urlSafe = (text: string) => text.replaceAll('+', '-').replaceAll('/', '_');
    const keyBits = (text: string) => {
      // What of the key survives: any 8-character run of any encoding of it.
      const encodings = ['', 'a', 'ab'].flatMap((p) => [b64(p), urlSafe(b64(p))]).concat(Buffer.from(key).toString('hex'));
      return encodings.some((e) => [...Array(e.length - 8).keys()].some((i) => i > 4 && i < e.length - 12 && text.includes(e.slice(i, i + 8))));
    };

    it.each([
      ['base64 at byte offset 0', b64('')],
      ['base64 at byte offset 1', b64('a')],
      ['base64 at byte offset 2', b64('ab')],
      ['base64 of user:key (Basic auth)', b64('desk:')],
      ['base64 without padding', b64('a').replace(/=+$/, '')],
      ['URL-safe base64', urlSafe(b64('x?'))],
      ['URL-safe base64 without padding', urlSafe(b64('x?')).replace(/=+$/, '')],
      ['hex in lower case', Buffer.from(key).toString('hex')],
      ['hex in upper case', Buffer.from(key).toString('hex').toUpperCase()],
      ['every byte percent-encoded', Buffer.from(key).toString('hex').replace(/../g, '%$&')],
      ['every byte percent-encoded, upper case', Buffer.from(key).toString('hex').toUpperCase().replace(/../g, '%$&')],
      ['split across lines', `${key.slice(0, 10)}\n${key.slice(10, 20)}\r\n  ${key.slice(20)}`],
      ['split across escaped lines in JSON', JSON.stringify(`${key.slice(0, 16)}\n${key.slice(16)}`)],
      ['base64 wrapped at 8 characters', b64('a').replace(/.{8}/g, '$&\n')],
      ['base64 wrapped in a JSON string', JSON.stringify(b64('ab').replace(/.{12}/g, '$&\r\n'))],
    ])('%s', (_name, form) => {
      const out = redactSecret(`{"error":"refused","echo":${JSON.stringify(form)}} and ${form} again`, key);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain(key);
      expect(keyBits(out), out).toBe(false);
      expect(out).toMatch(/^\{"error":"refused","echo":/);
      expect(out).toMatch(/ and .* again$/s);
    });

    it('leaves other base64 and hex alone', () => {
      const other = Buffer.from('not the key at all, something else entirely').toString('base64');
      const hex = Buffer.from('another value').toString('hex');
      expect(redactSecret(`${other} ${hex}`, key)).toBe(`${other} ${hex}`);
    });
  });
});
