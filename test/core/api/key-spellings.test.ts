import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_RUN } from '../../../src-main/core/api/key-forms.ts';
import { interpretResponse } from '../../../src-main/core/api/response.ts';
import { holdsKey, REDACTED, redactSecret } from '../../../src-main/core/api/redact.ts';
import { KEY_SPELLING_NAMES, KEY_SPELLINGS } from '../../../src-main/sandbox/key-echo.ts';
import { keyTraces } from '../../support/key-traces.ts';
import { marketTrade } from '../trades/fixtures.ts';

/**
 * The key is found whatever its spelling: every spelling of the simulator's
 * corpus, for a key in small hex letters (as the simulator issues) and one
 * in mixed case, in free text and inside JSON; ordinary text is left alone;
 * and the time to search a 20,000-trade answer is printed beside the time
 * JSON.parse takes to read it.
 */

const KEYS = { hex: '9f3a6c2e51b84d07a1c0b9d8e2f4a6c3', mixedCase: 'Zq7Rk2LmW9xT4bNc8VfH3sJd6GpY1aEu' };

describe.each(Object.entries(KEYS))('a key (%s) in any spelling', (_kind, key) => {
  it.each(KEY_SPELLING_NAMES)('%s: removed from free text, the words around it kept', (name) => {
    const spelled = KEY_SPELLINGS[name](key);
    const out = redactSecret(`refused: ${spelled} (see the docs)`, key);
    expect(keyTraces(out, key), out).toEqual([]);
    expect(out).toContain(REDACTED);
    expect(out.startsWith('refused: ')).toBe(true);
    expect(out.endsWith(' (see the docs)')).toBe(true);
  });

  it.each(KEY_SPELLING_NAMES)('%s: removed from JSON (escaped once more), which stays JSON', (name) => {
    const spelled = KEY_SPELLINGS[name](key);
    const out = redactSecret(JSON.stringify({ error: 'refused', echo: `key ${spelled}` }), key);
    expect(keyTraces(out, key), out).toEqual([]);
    expect(JSON.parse(out)).toEqual({ error: 'refused', echo: expect.stringContaining(REDACTED) });
  });
});

describe('what counts as the key', () => {
  const key = KEYS.mixedCase;

  it(`is a run of ${KEY_RUN} of its characters or more, in any case, wherever it starts`, () => {
    const run = key.slice(7, 7 + KEY_RUN);
    const short = key.slice(7, 7 + KEY_RUN - 1);
    expect(redactSecret(`id ${run.toLowerCase()} end`, key)).toBe(`id ${REDACTED} end`);
    expect(redactSecret(`id ${short} end`, key)).toBe(`id ${short} end`);
    // Two echoes side by side are two removals; the text between stays.
    expect(redactSecret(`${key}|${key.toUpperCase()}`, key)).toBe(`${REDACTED}|${REDACTED}`);
  });

  it('leaves ordinary text alone: names, IDs, URLs, hashes, other keys', () => {
    const other = randomBytes(16).toString('hex');
    const text = [
      'Team Captain', 'Strange Professional Killstreak Australium Rocket Launcher', '76561198012345678', '5021;6;uncraftable',
      `https://community.cloudflare.steamstatic.com/economy/image/${randomBytes(90).toString('base64url')}/360fx360f`,
      other, Buffer.from(other).toString('base64'), `%7B%22a%22%3A1%7D &amp; &#65;&#x42; \\u0043 \\n`,
    ].join(' ');
    expect(redactSecret(text, key)).toBe(text);
    expect(redactSecret(text, KEYS.hex)).toBe(text);
  });

  it('takes a key shorter than a run only whole, and a key of punctuation only as written', () => {
    expect(redactSecret('a k-e-y-1 and key12 and monkey', 'key1')).toBe(`a ${REDACTED} and ${REDACTED}2 and monkey`);
    expect(redactSecret('a ?!?! b ?!', '?!?!')).toBe(`a ${REDACTED} b ?!`);
  });

  it('does not let a hostile text make the search slow: a million escapes or half-escapes read in one pass', () => {
    const hostile = '%%\\\\&#&amp;'.repeat(100_000) + '&'.repeat(100_000) + '\\u00'.repeat(100_000);
    const start = process.cpuUsage();
    expect(holdsKey(hostile, key)).toBe(false);
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    console.log(`hostile text of ${(hostile.length / 1e6).toFixed(1)} M characters searched in ${ms.toFixed(0)} ms of CPU`);
  });
});

describe('a 20,000-trade answer', () => {
  const imageUrl = () => `https://community.cloudflare.steamstatic.com/economy/image/${randomBytes(90).toString('base64url')}/360fx360f`;
  const trades = Array.from({ length: 20_000 }, (_, i) => {
    const trade = marketTrade(String(61_000_000 + i), i % 3 === 0 ? 'Action Required' : 'Sent');
    return { ...trade, items: trade.items.map((item) => ({ ...item, image_url: imageUrl() })) };
  });
  const cpuMs = (run: () => void) => {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  const answer = (body: unknown) => ({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)), truncated: false });
  const ctx = { secret: KEYS.hex, nowMs: Date.now(), maxResponseBytes: 64 * 1024 * 1024 };

  it('is searched in one linear pass; one that holds the key comes out without it (figures printed)', () => {
    const clean = answer(trades);
    const text = clean.body.toString('utf8');
    const echoed = answer(trades.map((t, i) => (i === 19_999 ? { ...t, verification_code: KEYS.hex.slice(0, 16).toUpperCase() } : t)));
    const best = (run: () => void) => Math.min(...[0, 1, 2].map(() => cpuMs(run)));
    const parse = best(() => JSON.parse(text));
    const scan = best(() => holdsKey(text, KEYS.hex));
    const whole = best(() => interpretResponse('load_pending', clean, ctx));
    let told = 0;
    let last: unknown;
    const withEcho = best(() => {
      last = interpretResponse('load_pending', echoed, { ...ctx, onKeyEcho: () => told++ });
    });
    const mb = (clean.body.length / 1e6).toFixed(1);
    console.log(`20,000 trades, ${mb} MB: JSON.parse ${parse.toFixed(0)} ms, key search ${scan.toFixed(0)} ms, the whole answer read ${whole.toFixed(0)} ms (${withEcho.toFixed(0)} ms with the key in its last trade, taken out) — CPU time, best of 3`);
    expect(holdsKey(text, KEYS.hex)).toBe(false);
    expect(told).toBe(3);
    const parsed = last as Array<{ verification_code: string | null }>;
    expect(parsed[19_999]?.verification_code).toBe(REDACTED);
    expect(keyTraces(JSON.stringify(parsed.slice(-10)), KEYS.hex)).toEqual([]);
  }, 60_000);
});
