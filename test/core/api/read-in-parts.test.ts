import { afterEach, describe, expect, it } from 'vitest';
import { createMarketplaceClient, type MarketplaceClient } from '../../../src-main/core/api/client.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { findKey, KEY_RUN, keyForms, KeyScan } from '../../../src-main/core/api/key-forms.ts';
import { CHECK_PART } from '../../../src-main/core/api/list-check.ts';
import { holdsKeyInSlices, REDACTED, SCAN_SLICE } from '../../../src-main/core/api/redact.ts';
import { parseJsonInParts } from '../../../src-main/core/api/json-in-parts.ts';
import { interpretResponse, READ_IN_PARTS_ABOVE, readResponse } from '../../../src-main/core/api/response.ts';
import type { RawResponse } from '../../../src-main/core/api/transport.ts';
import { inTurns } from '../../../src-main/core/turn.ts';
import { KEY_SPELLING_NAMES, KEY_SPELLINGS } from '../../../src-main/sandbox/key-echo.ts';
import { keyTraces } from '../../support/key-traces.ts';
import { sandboxFixture } from '../../sandbox/helpers.ts';
import { marketTrade } from '../trades/fixtures.ts';

/**
 * An answer larger than READ_IN_PARTS_ABOVE (a trade list of thousands) is
 * read in parts, a turn of the event loop apart: the list's JSON a group of
 * elements a step (json-in-parts.test.ts counts those), the search for the key a slice of SCAN_SLICE characters a step, the
 * list's check CHECK_PART trades a step; a smaller one in one step. Either
 * way the same value or the same error comes out, and a key lying across
 * two slices of the search is found and taken out. Counted in turns, never
 * timed.
 */

const KEY = '9f3a6c2e51b84d07a1c0b9d8e2f4a6c3';

const trades = (n: number) => Array.from({ length: n }, (_, i) => marketTrade(String(61_000_000 + i), i % 3 === 0 ? 'Action Required' : 'Sent'));
const answer = (text: string): RawResponse => ({ status: 200, headers: {}, body: Buffer.from(text), truncated: false });
const ctx = (extra: { onKeyEcho?: () => void } = {}) => ({ secret: KEY, nowMs: Date.UTC(2025, 0, 6, 9), maxResponseBytes: 64 * 1024 * 1024, ...extra });

function countingTurns() {
  const counter = { turns: 0, turn: async () => void (counter.turns += 1) };
  return counter;
}

/** The parts a large answer of `n` trades and `chars` characters is read in: parse, the search's slices, the check's parts. */
const expectedTurns = (text: string, n: number) => 2 + turnsOf(parseJsonInParts(text)) + (Math.ceil(text.length / SCAN_SLICE) - 1) + (Math.ceil(n / CHECK_PART) - 1);

/** How many times a job cut in steps yields. */
function turnsOf(steps: Generator<void, unknown, void>): number {
  let turns = 0;
  while (!steps.next().done) turns++;
  return turns;
}

describe('reading an answer', () => {
  it('over 256 kB: in parts, JSON.parse a step of its own, the key searched a slice a turn, the list checked CHECK_PART trades a turn; the same value as in one step', async () => {
    const n = 3_000;
    const text = JSON.stringify(trades(n));
    expect(text.length).toBeGreaterThan(Math.max(READ_IN_PARTS_ABOVE, 2 * SCAN_SLICE));
    const counter = countingTurns();
    const read = await readResponse('load_pending', answer(text), { ...ctx(), turn: counter.turn });
    expect(counter.turns).toBe(expectedTurns(text, n));
    expect(read).toEqual(interpretResponse('load_pending', answer(text), ctx()));
    expect(read).toHaveLength(n);
  });

  it('of 256 kB or less: in one step, with no turn', async () => {
    const text = JSON.stringify(trades(100));
    expect(text.length).toBeLessThan(READ_IN_PARTS_ABOVE);
    const counter = countingTurns();
    const read = await readResponse('load_pending', answer(text), { ...ctx(), turn: counter.turn });
    expect(counter.turns).toBe(0);
    expect(read).toHaveLength(100);
  });

  it('gives the same error naming the endpoint and the fields, with every issue, however it is read', async () => {
    const bad = trades(3_000).map((t, i) => (i === 10 ? { ...t, total: 'ten' } : i === 2_700 ? { ...t, trade_id: '' } : i === 2_999 ? { ...t, extra: 1, status: 7 } : t));
    const raw = answer(JSON.stringify(bad));
    const atOnce = (() => {
      try {
        interpretResponse('load_pending', raw, ctx());
      } catch (error) {
        return error;
      }
      throw new Error('the answer was taken');
    })();
    const counter = countingTurns();
    const inParts = await readResponse('load_pending', raw, { ...ctx(), turn: counter.turn }).catch((error: unknown) => error);
    expect(counter.turns).toBeGreaterThan(Math.ceil(3_000 / CHECK_PART) - 1);
    expect(inParts).toBeInstanceOf(ApiError);
    expect((inParts as ApiError).toJSON()).toEqual((atOnce as ApiError).toJSON());
    expect((inParts as ApiError).kind).toBe('bad_response');
    expect((inParts as ApiError).message).toMatch(/^load_pending: 10\.total: .*\(and 2 more\)$/);
    expect((inParts as ApiError).issues?.map((i) => i.field)).toEqual(['10.total', '2700.trade_id', '2999.status']);
  });
});

describe('the key in a large answer', () => {
  /**
   * An echo of KEY_RUN + 1 of the key's characters, the first `before` of
   * them ahead of the search's first slice boundary: neither side alone is
   * long enough to count as the key.
   */
  const echo = KEY.slice(0, KEY_RUN + 1);
  const before = 2;

  /** The answer's text with `echo` as trade `at`'s verification code, across the first slice boundary. */
  function echoAcrossSlices(n: number, at: number): string {
    const placeholder = 'k'.repeat(echo.length);
    const text = JSON.stringify(trades(n).map((t, i) => (i === at ? { ...t, verification_code: placeholder } : t)));
    // Whitespace before the list's first trade moves every trade along.
    const padding = SCAN_SLICE - before - text.indexOf(placeholder);
    expect(padding).toBeGreaterThan(0);
    const padded = `[${' '.repeat(padding)}${text.slice(1).replace(placeholder, echo)}`;
    expect(padded.slice(SCAN_SLICE - before, SCAN_SLICE + echo.length - before)).toBe(echo);
    return padded;
  }

  it('lying across two slices of the search, is found and taken out, and the answer says so', async () => {
    const text = echoAcrossSlices(1_000, 200);
    const counter = countingTurns();
    expect(await inTurns(holdsKeyInSlices(text, KEY), counter.turn)).toBe(true);
    // Found on the second slice: what the first had read of it was carried over.
    expect(counter.turns).toBe(1);

    let told = 0;
    const read = await readResponse('load_pending', answer(text), { ...ctx({ onKeyEcho: () => void (told += 1) }), turn: counter.turn });
    expect(told).toBe(1);
    expect(read[200]?.verification_code).toBe(REDACTED);
    expect(keyTraces(JSON.stringify(read), KEY)).toEqual([]);
  });

  it('is found by a search stopped anywhere, in every spelling, as by one pass', () => {
    const forms = keyForms(KEY);
    for (const name of KEY_SPELLING_NAMES) {
      const spelled = KEY_SPELLINGS[name](KEY);
      const text = `{"note":"refused ${spelled} (twice: ${spelled.toUpperCase()})","id":"76561198012345678"}`;
      const whole = findKey(text, forms);
      expect(whole.length, name).toBeGreaterThan(0);
      for (let stop = 0; stop <= text.length; stop++) {
        const scan = new KeyScan(text, forms);
        scan.scanTo(stop);
        scan.scanTo(text.length);
        expect(scan.found, `${name}, stopped at ${stop}`).toEqual(whole);
      }
    }
  });
});

describe('the client', () => {
  const start = sandboxFixture({ inventorySize: 10 });
  const clients: MarketplaceClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });

  it('reads a flooded trade list from the simulator in parts over HTTP', async () => {
    const { sandbox, clock } = await start();
    sandbox.faults.set({ tradeFlood: { count: 2_000, endpoints: ['load_pending'] } });
    const counter = countingTurns();
    const client = createMarketplaceClient({ baseUrl: sandbox.url, apiKey: async () => sandbox.apiKey, clock, turn: counter.turn });
    clients.push(client);
    const listed = await client.call('load_pending', {});
    expect(listed.length).toBeGreaterThanOrEqual(2_000);
    expect(counter.turns).toBeGreaterThanOrEqual(2 + Math.ceil(listed.length / CHECK_PART) - 1);

    // A small answer is read in one step.
    const before = counter.turns;
    await client.call('get_balance', {});
    expect(counter.turns).toBe(before);
  });
});
