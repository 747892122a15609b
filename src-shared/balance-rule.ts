/**
 * The service's balance rule for buy orders (interface 4.2): a new order's
 * quantity is cut to floor(balance / price). Both are cents, so the quotient
 * is a count of items. Main applies it to the ledger's rows; the create form
 * uses it for its as-you-type hint.
 */
export function coveredQuantity(balance: number, price: number): number {
  if (price <= 0) return 0;
  return Math.max(0, Math.floor(balance / price));
}
