import type { WatchedTradeView } from '../../../src-shared/contract.ts';

/**
 * How the trade lists are ordered and coloured. Statuses are shown with the
 * service's exact wording (its capitalisation differs between market and buy
 * order trades); only the tone of the badge is derived here.
 */

/** Needs-action first, then newest first, then by ID so the order is stable. */
export function orderTrades(trades: readonly WatchedTradeView[]): WatchedTradeView[] {
  return [...trades].sort((a, b) => {
    if (a.needsAction !== b.needsAction) return a.needsAction ? -1 : 1;
    if (a.timestamp !== b.timestamp) return b.timestamp - a.timestamp;
    return a.trade_id < b.trade_id ? -1 : a.trade_id > b.trade_id ? 1 : 0;
  });
}

export type Tone = 'action' | 'warn' | 'ok' | 'info' | 'muted' | 'danger';

export function statusTone(status: string): Tone {
  switch (status) {
    case 'Action Required':
    case 'Action required':
      return 'action';
    case 'confirmation_required':
      return 'warn';
    case 'Waiting for seller':
    case 'Waiting for buyer':
      return 'info';
    default:
      return 'muted';
  }
}

/** "Strange · Unusual effect #13 · Field-Tested" from an item's details. */
export function itemDetails(item: { quality: string; particle_url: string | null; wear?: string | undefined }): string {
  const parts: string[] = [];
  if (item.quality !== '') parts.push(item.quality);
  if (item.particle_url !== null && item.particle_url !== '') parts.push(`effect ${item.particle_url}`);
  if (item.wear !== undefined && item.wear !== '') parts.push(item.wear);
  return parts.join(' · ');
}
