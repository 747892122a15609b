/**
 * A request the simulated service refuses as a whole: the handler throws it
 * before changing anything, and the server turns it into
 * `{ success: false, error: "<field path>: <reason>" }` with its status.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  readonly status: number;
  /** Dotted path of the offending field, e.g. `items.3.listing_id`. */
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string, status = 400) {
    super(`${field}: ${reason}`);
    this.status = status;
    this.field = field;
    this.reason = reason;
  }
}

/** Shorthand for the common case: item `index` of `items`, field `field`. */
export function refuseItem(index: number, field: string, reason: string): never {
  throw new Refusal(`items.${index}.${field}`, reason);
}
