/**
 * Numbers and plurals as a trader reads them, the way Intl's English rules
 * write them: "1 change", "2 changes", "1,004 listings". One place, so no
 * screen says "1 changes".
 *
 * Whole numbers, which is all the desk counts, are written here in plain
 * code: the first call into an Intl formatter loads its locale data, some
 * 15 ms (35 ms for the compact notation of a badge) in the first frames of
 * the desk. Intl still writes anything else (fractions, NaN, huge numbers).
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
  if (Number.isSafeInteger(n) && n < 1e15) return compactCount(n);
  compact ??= new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  return compact.format(n);
}

const UNITS = [[1e3, 'K'], [1e6, 'M'], [1e9, 'B'], [1e12, 'T']] as const;

/**
 * 10,000 ≤ n < 10^15 as Intl's English compact notation with one decimal at
 * most writes it ("12.3K", "1M" for 999,950), rounded half up in whole
 * numbers, so no float error moves a digit.
 */
function compactCount(n: number): string {
  for (let i = 0; i < UNITS.length; i++) {
    const [unit, suffix] = UNITS[i] as (typeof UNITS)[number];
    const tenth = unit / 10;
    const tenths = Math.floor(n / tenth) + ((n % tenth) * 2 >= tenth ? 1 : 0);
    // 999,950 rounds to 1000.0K: Intl writes it in the next unit, as 1M.
    if (tenths >= 10_000 && i < UNITS.length - 1) continue;
    const whole = Math.floor(tenths / 10);
    const decimal = tenths % 10;
    return `${whole}${decimal === 0 ? '' : `.${decimal}`}${suffix}`;
  }
  return String(n);
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
