import { DeskError, type DeskErrorKind } from '../../core/desk-error.ts';

/**
 * A request the app turns down before doing anything, for a reason the trader
 * can act on. The router passes its kind and message to the renderer as is:
 * `invalid` by default; `not_found` for an ID that names nothing (a job that
 * is not running), `conflict` for a state that does not allow it now.
 */
export class Refused extends DeskError {
  override readonly name = 'Refused';

  constructor(message: string, kind: DeskErrorKind = 'invalid') {
    super(kind, message);
  }
}
