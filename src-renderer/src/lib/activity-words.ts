import { splitTechnical } from './technical-text.ts';

/**
 * An Activity entry's message as a trader reads it. Main logs each request
 * with the draft keys of its items (`L:11000171305` for the listing of that
 * asset, `B:5021;6` for the buy order of that SKU) and the client's words;
 * the screen says "asset 11000171305" and "buy order 5021;6", and leaves the
 * endpoint names, status codes and network codes to the entry's tooltip,
 * which keeps the message as logged.
 */
export function activityMessage(message: string, mainAccount = ''): string {
  const named = message
    .replace(/\bLD?:(\d{1,20})\b/g, 'asset $1')
    .replace(/\bBD?:([^\s,·;]+)/g, 'buy order $1')
    .replace(/\bLA\b/g, 'all listings')
    .replace(/\bBA\b/g, 'all buy orders');
  // Each part of "account … · items · what happened" on its own: the technical part goes, the words stay.
  const parts = named.split(' · ').map((part) => splitTechnical(part).text || part);
  // What happened first (it is what the trader scans for), then the items; the main account goes without saying.
  const account = parts.filter((p) => /^account \d+$/.test(p)).map((p) => (p === `account ${mainAccount}` ? null : `linked account …${p.slice(-4)}`));
  const rest = parts.filter((p) => !/^account \d+$/.test(p));
  const ordered = rest.length > 1 ? [rest[rest.length - 1] as string, ...rest.slice(0, -1)] : rest;
  return [...ordered, ...account.filter((a) => a !== null)].join(' · ');
}
