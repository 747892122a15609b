import type { HistoryRowView, TradeEnding } from '../../../src-shared/contract.ts';
import { ENDING_WORDS, type Tone } from '../../../src-shared/trade-words.ts';

export { tradeKind } from '../../../src-shared/trade-words.ts';

/** How a kept trade ended, in the trader's words (History's CSV file says them the same), with the badge's tone. */
export const ENDINGS: Record<TradeEnding, { label: string; tone: Tone; explain: string }> = {
  pending: { ...ENDING_WORDS.pending, tone: 'info' },
  left: { ...ENDING_WORDS.left, tone: 'info' },
  balance_moved: { ...ENDING_WORDS.balance_moved, tone: 'ok' },
  listing_sold: { ...ENDING_WORDS.listing_sold, tone: 'ok' },
  vanished: { ...ENDING_WORDS.vanished, tone: 'muted' },
};

/** The items of a row as one line: "2 × Mann Co. Supply Crate Key, Team Captain and 3 more". */
export function itemsLine(row: Pick<HistoryRowView, 'items' | 'itemCount'>): string {
  const shown = row.items.slice(0, 2).map((i) => (i.quantity > 1 ? `${i.quantity} × ${i.name}` : i.name)).join(', ');
  const more = row.itemCount - Math.min(2, row.items.length);
  return more > 0 ? `${shown} and ${more} more` : shown;
}
