import type { WatchedTradeView } from '../../../src-shared/contract.ts';
import { byCodeUnit } from '../../../src-shared/text-order.ts';

/**
 * How the trade lists are ordered and worded. The service's statuses differ
 * in capitalisation between market and buy order trades; the desk says each
 * one way, with a tone for its badge and what the trader does next
 * (src-shared/trade-words.ts, which History's CSV file says them with too).
 */

/** Needs-action first, then newest first, then by ID so the order is stable. */
export function orderTrades(trades: readonly WatchedTradeView[]): WatchedTradeView[] {
  return [...trades].sort((a, b) => {
    if (a.needsAction !== b.needsAction) return a.needsAction ? -1 : 1;
    if (a.timestamp !== b.timestamp) return b.timestamp - a.timestamp;
    return byCodeUnit(a.trade_id, b.trade_id);
  });
}

export { rawStatusWords, statusWords, type StatusWords, type Tone } from '../../../src-shared/trade-words.ts';

/**
 * What sets an item apart, after its name: quality, effect (named when the
 * schema knows it), killstreak, australium, festivized, wear, craftable. A
 * part the name already says ("Non-Craftable …", an effect before an
 * Unusual's name) is not said twice.
 */
export function itemDetails(item: {
  name?: string;
  quality: string;
  particle_url: string | null;
  wear?: string | undefined;
  item?: { effect: string | null; killstreak: string | null; australium: boolean; festivized: boolean; craftable: boolean; wear: string | null } | null | undefined;
}): string {
  const named = (item.name ?? '').toLowerCase();
  const parts: string[] = [];
  const add = (part: string | null | undefined) => {
    if (part && !named.includes(part.toLowerCase())) parts.push(part);
  };
  add(item.quality);
  add(item.item?.effect ?? (item.particle_url !== null && item.particle_url !== '' ? `effect #${item.particle_url}` : null));
  add(item.item?.killstreak);
  if (item.item?.australium) add('Australium');
  if (item.item?.festivized) add('Festivized');
  add(item.wear !== undefined && item.wear !== '' ? item.wear : item.item?.wear ?? null);
  if (item.item && !item.item.craftable) add('Non-Craftable');
  return parts.join(' · ');
}
