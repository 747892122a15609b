import { describe, expect, it } from 'vitest';
import { checkPayload, PAYLOAD_LIMITS } from '../../src-main/ipc/payload-guard.ts';

describe('payload outline check', () => {
  it('accepts plain data up to the largest input the contract allows', () => {
    const changes = Array.from({ length: 100_000 }, (_, i) => ({
      kind: 'listing.create', account: '76561198000000001', asset_id: String(i), price: 100, promoted: 1, game: '440', user_note: 'n', sku: '5021;6',
    }));
    const result = checkPayload({ draftId: 'd', changes });
    expect(result).toEqual({ ok: true, values: 900_003 });
    expect(result.ok && result.values).toBeLessThanOrEqual(PAYLOAD_LIMITS.values);
    expect(checkPayload({ csv: 'x'.repeat(50_000_000) }).ok).toBe(true);
    expect(checkPayload(Object.assign(Object.create(null) as object, { a: [1, null, true, undefined] })).ok).toBe(true);
  });

  it.each([
    ['a Uint8Array', new Uint8Array(1024 * 1024), '(root)', 'must be plain data (objects, lists, text, numbers), not a Uint8Array of 1048576 bytes'],
    ['an ArrayBuffer inside', { draftId: new ArrayBuffer(8) }, 'draftId', 'must be plain data (objects, lists, text, numbers), not an ArrayBuffer of 8 bytes'],
    ['a Map in a list', { ids: ['a', new Map()] }, 'ids.1', 'must be plain data (objects, lists, text, numbers), not a Map'],
    ['a Date', { at: new Date(0) }, 'at', 'must be plain data (objects, lists, text, numbers), not a Date'],
    ['a bigint', { n: 1n }, 'n', 'must be plain data (objects, lists, text, numbers), not a bigint'],
    ['a class instance', { e: new Error('x') }, 'e', 'must be plain data (objects, lists, text, numbers), not a Error'],
  ])('refuses %s in one issue, naming where', (_name, input, field, message) => {
    expect(checkPayload(input)).toEqual({ ok: false, issue: { field, message } });
  });

  it('stops a cycle at the depth limit and shared branches at the value limit', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    const cycle = checkPayload(loop);
    expect(cycle).toMatchObject({ ok: false, issue: { message: `is nested more than ${PAYLOAD_LIMITS.depth} levels deep` } });
    let shared: unknown = 'leaf';
    for (let i = 0; i < 6; i++) shared = Array.from({ length: 40 }, () => shared);
    expect(checkPayload(shared)).toMatchObject({ ok: false, issue: { message: 'is too large: more than 1,000,000 values' } });
    expect(checkPayload({ a: 'x'.repeat(40_000_000), b: 'y'.repeat(40_000_000) })).toMatchObject({
      ok: false, issue: { field: 'b', message: 'is too large: more than 67,108,864 characters of text' },
    });
  });
});
