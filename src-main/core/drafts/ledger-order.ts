import type { LedgerColumn, LedgerDomain, LedgerFilter } from '../../../src-shared/ledger.ts';
import { isLedgerBuyOrder, isLedgerListing, type BuyOrderSource, type ListingSource } from './ledger-rows.ts';

/**
 * Which rows of a table match a filter and in what order they come, from a
 * row's own values (see ledger-rows.ts): the pure half of the ledger queries.
 */

export type Source = ListingSource | BuyOrderSource;
type SortValue = string | number;

/** Whether a row's own values match the filter; built once per query so the row loop does no parsing. */
export function matcher(domain: LedgerDomain, f: LedgerFilter, searchName?: (sku: string) => string | undefined): (key: string, s: Source) => boolean {
  const text = f.text?.trim().toLowerCase() || undefined;
  const note = f.note?.trim().toLowerCase() || undefined;
  const sku = f.sku?.trim() || undefined;
  const account = f.account || undefined;
  return (key, s) => {
    if (sku !== undefined && s.sku !== sku) return false;
    if (account !== undefined && s.account !== account) return false;
    if (f.minPrice !== undefined && s.price < f.minPrice) return false;
    if (f.maxPrice !== undefined && s.price > f.maxPrice) return false;
    if (domain === 'listings') {
      if (f.promoted !== undefined && (s as ListingSource).promoted !== f.promoted) return false;
    } else if (f.active !== undefined && (isLedgerBuyOrder(s as BuyOrderSource) ? (s as { active: 0 | 1 }).active : 1) !== f.active) {
      return false;
    }
    const rowNote = (s.user_note ?? '').toLowerCase();
    if (note !== undefined && !rowNote.includes(note)) return false;
    if (text !== undefined) {
      const rowSku = (s.sku ?? '').toLowerCase();
      const listingId = domain === 'listings' && isLedgerListing(s as ListingSource) ? ((s as { listing_id: string | null }).listing_id ?? '') : '';
      const name = searchName && s.sku ? searchName(s.sku) : undefined;
      return rowSku.includes(text) || rowNote.includes(text) || key.includes(text)
        || listingId.toLowerCase().includes(text) || (name !== undefined && name.includes(text));
    }
    return true;
  };
}

/** The value a column sorts by, from a row's own values. */
export function sortValue(domain: LedgerDomain, column: LedgerColumn, searchName?: (sku: string) => string | undefined): (s: Source) => SortValue {
  switch (column) {
    case 'name': return (s) => (s.sku ? (searchName?.(s.sku) ?? s.sku.toLowerCase()) : '');
    case 'asset': return (s) => ('asset_id' in s ? s.asset_id.padStart(20, '0') : '');
    case 'price': return (s) => s.price;
    case 'promoted': return (s) => ('promoted' in s ? s.promoted : 0);
    case 'note': return (s) => (s.user_note ?? '').toLowerCase();
    case 'account': return (s) => s.account;
    case 'state': return (s) => (domain === 'listings' && isLedgerListing(s as ListingSource) ? (s as { state: string }).state : 'new');
    case 'quantity': return (s) => ('quantity' in s ? s.quantity : 0);
    case 'active': return (s) => (isLedgerBuyOrder(s as BuyOrderSource) ? (s as { active: number }).active : 1);
    case 'filled': return (s) => (isLedgerBuyOrder(s as BuyOrderSource) ? (s as { fills_seen: number }).fills_seen : 0);
  }
}

/** Stable sort of keys by a value computed once per key. */
export function sortKeys(keys: string[], value: (key: string) => SortValue, dir: 'asc' | 'desc'): string[] {
  const values = keys.map(value);
  const order = keys.map((_, i) => i);
  const sign = dir === 'asc' ? 1 : -1;
  order.sort((a, b) => {
    const va = values[a] as SortValue;
    const vb = values[b] as SortValue;
    return va < vb ? -sign : va > vb ? sign : a - b;
  });
  return order.map((i) => keys[i] as string);
}

/** Merges two sorted key lists (the ledger's and the draft's creates, creates first among equals). */
export function mergeSorted(ledger: readonly string[], created: readonly string[], value: (key: string) => SortValue, dir: 'asc' | 'desc'): string[] {
  const out: string[] = [];
  const before = (a: SortValue, b: SortValue) => (dir === 'asc' ? a <= b : a >= b);
  let i = 0;
  let j = 0;
  let next = j < created.length ? value(created[j] as string) : undefined;
  while (i < ledger.length || j < created.length) {
    if (j < created.length && (i >= ledger.length || before(next as SortValue, value(ledger[i] as string)))) {
      out.push(created[j] as string);
      j += 1;
      next = j < created.length ? value(created[j] as string) : undefined;
    } else {
      out.push(ledger[i] as string);
      i += 1;
    }
  }
  return out;
}

export function byAssetId(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
