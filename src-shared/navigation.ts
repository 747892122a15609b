/**
 * Where a page of the app starts: the screen lives in the URL hash
 * (`#/trades`), and a trade to bring into view rides along (`?trade=<id>`).
 * Main opens a new window at such a hash (a notification clicked while the
 * app was in the tray); the renderer reads it. One format, both sides.
 */

/** A trade ID as the service gives it: digits only. */
const TRADE_ID = /^\d{1,20}$/;

export function navigationHash(target: { readonly view: string; readonly tradeId?: string | undefined }): string {
  const trade = target.tradeId !== undefined && TRADE_ID.test(target.tradeId) ? `?trade=${target.tradeId}` : '';
  return `#/${encodeURIComponent(target.view)}${trade}`;
}

/** The trade named in a hash, or null. */
export function tradeIdFromHash(hash: string): string | null {
  const query = hash.split('?')[1];
  const id = query === undefined ? null : new URLSearchParams(query).get('trade');
  return id !== null && TRADE_ID.test(id) ? id : null;
}
