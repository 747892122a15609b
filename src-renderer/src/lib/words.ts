/**
 * Numbers and plurals as a trader reads them, the way Intl's English rules
 * write them: "1 change", "2 changes", "1,004 listings". One place, so no
 * screen says "1 changes".
 *
 * Whole numbers, which is all the desk counts, are grouped here in plain
 * code: the first call into an Intl formatter loads its locale data, some
 * 15 ms that fell in the frame showing a table's first rows. Intl still
 * writes anything else (fractions, NaN) and the compact badges.
 */
let numbers: Intl.NumberFormat | null = null;
let compact: Intl.NumberFormat | null = null;

/** "1 listing", "2 listings"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  // English: only 1 (or -1) takes the singular ("0 listings", "1.5 listings").
  return `${formatCount(n)} ${Math.abs(n) === 1 ? one : many}`;
}

/** "1,004": digits grouped by thousands with commas, as Intl.NumberFormat('en') writes them. */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) return (n < 0 || Object.is(n, -0) ? '-' : '') + groupThousands(String(Math.abs(n)));
  numbers ??= new Intl.NumberFormat('en');
  return numbers.format(n);
}

/** A count for a small badge: exact up to 9,999, then "12K", "1.2M" (the exact count goes in its title). */
export function formatBadge(n: number): string {
  if (n < 10_000) return formatCount(n);
  compact ??= new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  return compact.format(n);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
