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
});
