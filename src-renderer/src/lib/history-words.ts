import type { HistoryRowView, TradeEnding } from '../../../src-shared/contract.ts';
import type { Tone } from './trade-order.ts';

/** How a kept trade ended, in the trader's words, with the badge's tone. */
export const ENDINGS: Record<TradeEnding, { label: string; tone: Tone; explain: string }> = {
  pending: { label: 'pending', tone: 'info', explain: 'still in the pending lists' },
  left: { label: 'left, checking', tone: 'info', explain: 'left the pending lists; the next balance readings will tell' },
  balance_moved: { label: 'completed', tone: 'ok', explain: 'the balance moved by its amount' },
  listing_sold: { label: 'completed', tone: 'ok', explain: 'its listing is gone from the service, or was refused as sold' },
  vanished: { label: 'vanished', tone: 'muted', explain: 'left the pending lists with nothing to say it went through: declined or expired, most likely' },
};

/** "Sale · market", "Purchase · buy order". */
export function tradeKind(row: Pick<HistoryRowView, 'side' | 'tradeType'>): string {
  return `${row.side === 'sale' ? 'Sale' : 'Purchase'} · ${row.tradeType === 'market' ? 'listing' : 'buy order'}`;
}

/** The items of a row as one line: "2 × Mann Co. Supply Crate Key, Team Captain and 3 more". */
export function itemsLine(row: Pick<HistoryRowView, 'items' | 'itemCount'>): string {
  const shown = row.items.slice(0, 2).map((i) => (i.quantity > 1 ? `${i.quantity} × ${i.name}` : i.name)).join(', ');
  const more = row.itemCount - Math.min(2, row.items.length);
  return more > 0 ? `${shown} and ${more} more` : shown;
}
