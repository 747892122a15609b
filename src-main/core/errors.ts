import type { DeskErrorKind } from '../../src-shared/errors.ts';

/**
 * A refusal the trader can act on, with a kind of the shared closed set
 * (`not_found`, `conflict`, `invalid`, …) and a message written for the
 * screen. The bridge passes both on as they are; anything thrown that is not
 * kinded is a bug and reaches the screen only as `internal`.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly kind: DeskErrorKind;

  constructor(kind: DeskErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}
