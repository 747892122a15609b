import { groupThousands } from '../../../src-shared/money.ts';

/**
 * Numbers and plurals as a trader reads them, in English: "1 change",
 * "2 changes", "1,004 listings". One place, so no screen says "1 changes".
 *
 * Written out rather than asked of Intl: the first Intl formatter a window
 * makes loads the locale's data (20–40 ms on a slow machine), and a ledger
 * screen's first rows waited for it behind their counts. The tests hold
 * these to what `Intl.NumberFormat('en')` and `Intl.PluralRules('en')` say.
 */

/** "1 listing", "2 listings"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  // English has one singular: exactly one ("0 changes", "1.5 changes").
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

let fractions: Intl.NumberFormat | null = null;

export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) return groupThousands(n);
  // Counts are whole; anything else (never expected) is still printed as Intl would.
  fractions ??= new Intl.NumberFormat('en');
  return fractions.format(n);
}

const UNITS = [
  { size: 1e3, suffix: 'K' },
  { size: 1e6, suffix: 'M' },
  { size: 1e9, suffix: 'B' },
  { size: 1e12, suffix: 'T' },
] as const;

/** A count for a small badge: exact up to 9,999, then "12.3K", "1.2M" (the exact count goes in its title). */
export function formatBadge(n: number): string {
  if (n < 10_000 || !Number.isSafeInteger(n)) return formatCount(n);
  let unit = UNITS.findLast((u) => n >= u.size) ?? UNITS[0];
  // In tenths of the unit, rounded half up; exact, since n × 10 and a power of ten divide without error.
  let tenths = Math.round((n * 10) / unit.size);
  // 999,950 is "1M", not "1000K".
  const next = UNITS[UNITS.indexOf(unit) + 1];
  if (tenths >= 10_000 && next) {
    unit = next;
    tenths = Math.round((n * 10) / unit.size);
  }
  const whole = Math.floor(tenths / 10);
  const tenth = tenths % 10;
  return `${groupThousands(whole)}${tenth === 0 ? '' : `.${tenth}`}${unit.suffix}`;
}
