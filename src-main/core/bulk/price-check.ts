import { cents } from '../../../src-shared/fields.ts';

/**
 * The shared `cents` rule for tens of thousands of computed prices. Asking
 * zod for each (and building an error for each refused row) would spend most
 * of a bulk edit's time, so a positive safe integer, which is exactly what
 * `cents` accepts (a test holds the two together), passes at once, and the
 * reason for a refusal comes from `cents` itself, once per kind of failure.
 * Null when the price is valid.
 */
export function priceProblem(price: number): string | null {
  if (Number.isSafeInteger(price) && price > 0) return null;
  const kind = !Number.isFinite(price) ? String(price) : !Number.isInteger(price) ? 'fraction' : price <= 0 ? 'not-positive' : 'too-large';
  let reason = reasons.get(kind);
  if (reason === undefined) {
    const r = cents.safeParse(price);
    reason = r.success ? 'is invalid' : (r.error.issues[0]?.message ?? 'is invalid');
    reasons.set(kind, reason);
  }
  return reason;
}

const reasons = new Map<string, string>();
