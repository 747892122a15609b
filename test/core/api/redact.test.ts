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
