import type { BuyOrderDisplay, ListingDisplay } from './draft-overlay.ts';

/**
 * The filters of the Listings and Buy orders tables. They look at the ledger's
 * current values (not the draft's), so a row does not jump out of view while
 * the trader is repricing it.
 */
export interface LedgerFilter {
  /** Free text from the search box: SKU, asset/listing ID or note. */
  text: string;
  sku: string;
  minPrice: number | null;
  maxPrice: number | null;
  /** Account ID, or '' for every account. */
  account: string;
  /** Listings: promoted; buy orders: active. '' is either. */
  flag: '' | '0' | '1';
  note: string;
  /** Only rows the current draft changes. */
  changedOnly: boolean;
}

export function emptyFilter(): LedgerFilter {
  return { text: '', sku: '', minPrice: null, maxPrice: null, account: '', flag: '', note: '', changedOnly: false };
}

export function isFilterActive(f: LedgerFilter): boolean {
  return (
    f.text.trim() !== '' || f.sku.trim() !== '' || f.minPrice !== null || f.maxPrice !== null ||
    f.account !== '' || f.flag !== '' || f.note.trim() !== '' || f.changedOnly
  );
}

type Probe = (price: number, account: string, flag: 0 | 1, changed: boolean, sku: string, note: string, ids: string) => boolean;

/** One predicate built per filter, so the 50,000-row loop does no parsing. */
function compile(f: LedgerFilter): Probe {
  const text = f.text.trim().toLowerCase();
  const sku = f.sku.trim().toLowerCase();
  const note = f.note.trim().toLowerCase();
  const flag = f.flag === '' ? null : Number(f.flag);
  const { minPrice, maxPrice, account, changedOnly } = f;
  return (price, acct, rowFlag, changed, rowSku, rowNote, ids) => {
    if (minPrice !== null && price < minPrice) return false;
    if (maxPrice !== null && price > maxPrice) return false;
    if (account !== '' && acct !== account) return false;
    if (flag !== null && rowFlag !== flag) return false;
    if (changedOnly && !changed) return false;
    if (sku !== '' && !rowSku.toLowerCase().includes(sku)) return false;
    if (note !== '' && !rowNote.toLowerCase().includes(note)) return false;
    if (text !== '') {
      return rowSku.toLowerCase().includes(text) || rowNote.toLowerCase().includes(text) || ids.includes(text);
    }
    return true;
  };
}

export function filterListings(rows: readonly ListingDisplay[], f: LedgerFilter): readonly ListingDisplay[] {
  if (!isFilterActive(f)) return rows;
  const probe = compile(f);
  return rows.filter((d) => {
    const r = d.row;
    return probe(r.price, r.account, r.promoted, d.change !== null, r.sku, r.user_note, `${r.asset_id} ${(r.listing_id ?? '').toLowerCase()}`);
  });
}

export function filterBuyOrders(rows: readonly BuyOrderDisplay[], f: LedgerFilter): readonly BuyOrderDisplay[] {
  if (!isFilterActive(f)) return rows;
  const probe = compile(f);
  return rows.filter((d) => {
    const r = d.row;
    return probe(r.price, r.account, r.active, d.change !== null, r.sku, r.user_note, '');
  });
}
