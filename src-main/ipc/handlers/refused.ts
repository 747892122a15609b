/**
 * A request the app turns down before doing anything, for a reason the trader
 * can act on. The router passes its kind and message to the renderer as is.
 */
export class Refused extends Error {
  override readonly name = 'Refused';
  readonly kind = 'invalid';
}
