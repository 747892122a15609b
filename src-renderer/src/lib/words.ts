/**
 * Numbers and plurals as a trader reads them, through Intl: "1 change",
 * "2 changes", "1,004 listings". One place, so no screen says "1 changes".
 *
 * Each formatter is made when first needed: making one loads its locale data
 * (the compact one, for badges, some 30 ms), which need not happen while the
 * app starts and before a screen's first rows.
 */
let rules: Intl.PluralRules | null = null;
let numbers: Intl.NumberFormat | null = null;
let compact: Intl.NumberFormat | null = null;

/** "1 listing", "2 listings"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  rules ??= new Intl.PluralRules('en');
  return `${formatCount(n)} ${rules.select(n) === 'one' ? one : many}`;
}

export function formatCount(n: number): string {
  numbers ??= new Intl.NumberFormat('en');
  return numbers.format(n);
}

/** A count for a small badge: exact up to 9,999, then "12K", "1.2M" (the exact count goes in its title). */
export function formatBadge(n: number): string {
  if (n < 10_000) return formatCount(n);
  compact ??= new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  return compact.format(n);
}
