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

/** How long a listing stood: 3_780_000 → "1 h 03 min"; days above two days; "—" when unknown. */
export function formatSpan(ms: number | null): string {
  if (ms === null) return '—';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${(ms / 86_400_000).toFixed(1)} days`;
}
