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

function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
