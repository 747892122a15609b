import type { ListingInput } from '../../src-main/core/store/listings-repo.ts';
import type { Repos } from '../../src-main/core/store/index.ts';

/** The benches' main account and the listings they seed (asset IDs 10000000.., prices 100..5099). */
export const BENCH_MAIN = '76561198000000001';

/**
 * `count` listings of the bench's form: row i has asset ID 10000000+i, listing
 * ID L<i>, one of 50 SKUs, a price of 100..5099 cents, every third promoted,
 * every seventh with a note. `from` starts the numbering later; `account`
 * names another owner (a simulator's main account).
 */
export function benchListings(count: number, options: { from?: number; account?: string } = {}): ListingInput[] {
  const from = options.from ?? 0;
  const account = options.account ?? BENCH_MAIN;
  const listings: ListingInput[] = [];
  for (let i = from; i < from + count; i++) {
    listings.push({
      asset_id: String(10_000_000 + i), listing_id: `L${i}`, sku: `${5000 + (i % 50)};6`, price: 100 + (i % 5000),
      promoted: (i % 3 === 0 ? 1 : 0) as 0 | 1, game: '440', account, user_note: i % 7 === 0 ? 'fast trade' : '',
    });
  }
  return listings;
}

/** The main account and `count` listings in a fresh profile's store. */
export function seedBenchLedger(repos: Repos, count: number): ListingInput[] {
  repos.accounts.upsert({ account_id: BENCH_MAIN, kind: 'main' });
  const listings = benchListings(count);
  repos.listings.upsertMany(listings);
  return listings;
}
