import type { LedgerColumn, LedgerDomain } from '../../../src-shared/contract.ts';

/**
 * The columns of the two ledger tables: one table component draws both, and
 * this says which columns each has, how wide, and which sort (main sorts;
 * the header only asks).
 */
export type CellKind = 'draft' | 'item' | 'asset' | 'price' | 'cost' | 'promoted' | 'quantity' | 'active' | 'filled' | 'note' | 'account' | 'state';

export interface ColumnSpec {
  readonly cell: CellKind;
  readonly label: string;
  readonly width: string;
  readonly sort?: LedgerColumn;
  /** A second order the header offers beside its own (the price after the draft). */
  readonly altSort?: { readonly column: LedgerColumn; readonly label: string; readonly title: string };
  readonly align?: 'right';
}

/*
 * Widths: at 1280×800 the sums of the minimums fit beside the sidebar, so
 * nothing a trader must read is cut: the Draft marks with their "!" (DELETE !
 * is the widest), a reprice of four-figure prices before → after, the state
 * with its reason. Wider windows give the room to the item's name and note.
 */
const DRAFT: ColumnSpec = { cell: 'draft', label: 'Draft', width: '100px' };
const ITEM: ColumnSpec = { cell: 'item', label: 'Item', width: 'minmax(230px, 5fr)', sort: 'name' };
const PRICE: ColumnSpec = {
  cell: 'price', label: 'Price', width: 'minmax(172px, 1fr)', sort: 'price', align: 'right',
  altSort: { column: 'newPrice', label: 'new', title: 'Sort by the price after the draft' },
};
const NOTE: ColumnSpec = { cell: 'note', label: 'Note', width: 'minmax(90px, 2fr)', sort: 'note' };
const ACCOUNT: ColumnSpec = { cell: 'account', label: 'Account', width: '104px', sort: 'account' };

export const COLUMNS: Readonly<Record<LedgerDomain, readonly ColumnSpec[]>> = {
  listings: [
    DRAFT, ITEM,
    { cell: 'asset', label: 'Asset ID', width: 'minmax(100px, 0.8fr)', sort: 'asset' },
    PRICE,
    { cell: 'cost', label: 'Cost, margin', width: 'minmax(128px, 1fr)', align: 'right' },
    { cell: 'promoted', label: 'Promo', width: '68px', sort: 'promoted' },
    NOTE, ACCOUNT,
    { cell: 'state', label: 'State', width: 'minmax(120px, 1.2fr)', sort: 'state' },
  ],
  buyOrders: [
    DRAFT, ITEM, PRICE,
    { cell: 'quantity', label: 'Quantity', width: 'minmax(120px, 1fr)', sort: 'quantity', align: 'right' },
    { cell: 'active', label: 'Active', width: '80px', sort: 'active' },
    { cell: 'filled', label: 'Filled', width: '64px', sort: 'filled', align: 'right' },
    NOTE, ACCOUNT,
  ],
};

export const gridTemplate = (domain: LedgerDomain) => COLUMNS[domain].map((c) => c.width).join(' ');

/** How a ledger state reads on screen. */
export const STATE_TEXT: Readonly<Record<string, string>> = {
  active: 'active',
  new: 'new',
  id_unknown: 'ID unknown',
  inactive: 'inactive',
  sold: 'sold',
  cancelled: 'cancelled',
  sold_in_trade: 'sold, in trade',
  not_on_service: 'not on service',
};
