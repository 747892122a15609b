/**
 * Numbers and plurals as a trader reads them, through Intl: "1 change",
 * "2 changes", "1,004 listings". One place, so no screen says "1 changes".
 */
const rules = new Intl.PluralRules('en');
const numbers = new Intl.NumberFormat('en');

/** "1 listing", "2 listings"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${numbers.format(n)} ${rules.select(n) === 'one' ? one : many}`;
}

export function formatCount(n: number): string {
  return numbers.format(n);
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A count for a small badge: exact up to 9,999, then "12K", "1.2M" (the exact count goes in its title). */
export function formatBadge(n: number): string {
  return n < 10_000 ? numbers.format(n) : compact.format(n);
}
