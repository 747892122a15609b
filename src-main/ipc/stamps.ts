/**
 * Stamps: one counter for the whole bridge, and the value it had when each
 * area of main's state last changed. Every reply and event carries its area's
 * stamp, so a screen can tell the newer of two answers whatever order they
 * arrive in (an event pushed while a reply was on its way, say), and drop
 * the older: what it shows is never behind what main told it.
 */
export type Area =
  | 'app' | 'key' | 'settings' | 'heartbeat' | 'scheduler' | 'balance' | 'trades' | 'accounts'
  | 'ledger' | 'drafts' | 'apply' | 'outcomes' | 'activity' | 'history' | 'inventory' | 'alerts' | 'pricing';

export interface Stamps {
  /** The area changed: its stamp becomes the next value of the counter. */
  bump(area: Area): number;
  /** The area's stamp: the counter's value at its last change. */
  of(area: Area): number;
}

/**
 * `start`: where the counter begins. A desk reopened after its worker died
 * starts beyond every stamp the screens were given, so they take its answers.
 */
export function createStamps(start = 0): Stamps {
  let counter = start;
  const stamps = new Map<Area, number>();
  return {
    bump(area) {
      counter += 1;
      stamps.set(area, counter);
      return counter;
    },
    of: (area) => stamps.get(area) ?? 0,
  };
}
