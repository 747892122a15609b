import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { splitIntoRequests } from '../../../src-main/core/api/split-requests.ts';
import { toFieldIssues } from '../../../src-main/core/api/validate.ts';
import { editListingRequest } from '../../../src-main/core/api/schemas.ts';

const listing = (i: number) => ({ asset_id: String(1000 + i), price: 100 + i, promoted: 0 as const, game: '440' });

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('splitIntoRequests', () => {
  it('cuts any number of items into requests of at most 100, in order', () => {
    const items = Array.from({ length: 250 }, (_, i) => listing(i));
    const requests = splitIntoRequests('create_listing', items, { multiaccount_proxy: '765' });
    expect(requests.map((r) => r.items.length)).toEqual([100, 100, 50]);
    expect(requests.flatMap((r) => r.items)).toEqual(items);
    expect(requests.every((r) => r.multiaccount_proxy === '765')).toBe(true);
  });

  it('gives exactly one request for 100 items and none for zero', () => {
    expect(splitIntoRequests('delete_listing', Array.from({ length: 100 }, (_, i) => ({ asset_id: String(i) })))).toHaveLength(1);
    expect(splitIntoRequests('delete_listing', [])).toEqual([]);
  });

  it('takes itemized endpoints only', () => {
    // @ts-expect-error get_balance carries no items
    expect(splitIntoRequests('get_balance', [])).toEqual([]);
  });

  it('names the item index in the whole list and the field of every bad item', () => {
    const items = Array.from({ length: 205 }, (_, i) => listing(i));
    items[3] = { ...listing(3), price: 0 };
    items[150] = { ...listing(150), game: 'tf2' };
    const error = thrown(() => splitIntoRequests('create_listing', items));
    expect(error.kind).toBe('invalid');
    expect(error.endpoint).toBe('create_listing');
    expect(error.issues).toEqual([
      { item: 3, field: 'items.3.price', message: 'must be more than 0 cents' },
      { item: 150, field: 'items.150.game', message: 'must be a game app ID of digits only' },
    ]);
    expect(error.message).toBe('create_listing: items.3.price: must be more than 0 cents (and 1 more)');
  });

  it('reports an unknown field by name, and a bad shared field once', () => {
    const items = Array.from({ length: 150 }, (_, i) => ({ sku: `a;${i}` }));
    const withExtra = [...items.slice(0, 120), { sku: 'a;x', price: 5 }, ...items.slice(121)];
    const error = thrown(() =>
      splitIntoRequests('delete_buy_order', withExtra as { sku: string }[]),
    );
    expect(error.issues).toEqual([{ item: 120, field: 'items.120.price', message: 'is not a known field' }]);

    const shared = thrown(() => splitIntoRequests('create_buy_order', Array.from({ length: 150 }, (_, i) => ({ sku: `a;${i}`, price: 1, quantity: 1 })), { multiaccount_proxy: 'abc' }));
    expect(shared.issues).toEqual([{ field: 'multiaccount_proxy', message: 'must be an account ID of digits only' }]);
  });
});

describe('toFieldIssues', () => {
  it('maps a missing field and a whole-request problem', () => {
    const result = editListingRequest.safeParse({ items: [{ listing_id: 'L', promoted: 1 }] });
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error!.issues)).toEqual([
      { item: 0, field: 'items.0.price', message: 'must be a number of cents' },
    ]);
    const empty = editListingRequest.safeParse({ items: [] });
    expect(toFieldIssues(empty.error!.issues)).toEqual([{ field: 'items', message: 'must hold at least one item' }]);
  });
});
