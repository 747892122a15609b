/**
 * The one place that turns an amount from the service into text.
 *
 * The interface document says every amount is an integer number of cents; one
 * example on the service's public pages reads otherwise. So no other module
 * divides by 100 or prints a currency sign: if the unit turns out different,
 * this function alone changes.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`an amount must be a whole number of cents, got ${String(cents)}`);
  }
  // Integer arithmetic: no float ever stands between the service and the text.
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.trunc(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${sign}$${groupThousands(whole)}.${fraction}`;
}

/**
 * An amount as a file holds it: dollars with two decimals, no sign of the
 * currency and no grouping ("1234.50"), so a spreadsheet reads it as a
 * number and `parseCents` reads it back exactly. The CSV columns are in dollars.
 */
export function formatDecimal(cents: number): string {
  return formatCents(cents).replace('$', '').replaceAll(',', '');
}

/** A whole number with its thousands grouped: "1,234,567" (amounts here, and the desk's counts). */
export function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Reads an amount a trader typed ("12.34", "$1,234.5", "-0.05", "7") into whole
 * cents, or null when it is not an amount. It is the inverse of `formatCents`
 * and lives beside it so that both change together if the unit ever does.
 * Parsed from the digits as text: no float ever stands between input and cents.
 */
export function parseCents(text: string): number | null {
  const match = /^\s*(-)?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d{0,2}))?\s*$/.exec(text);
  if (!match) return null;
  const whole = (match[2] ?? '').replaceAll(',', '');
  const fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return null;
  const cents = Number(whole === '' ? '0' : whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return match[1] === '-' && cents !== 0 ? -cents : cents;
}
