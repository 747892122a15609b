/**
 * How a long job gives the event loop back between its slices, so calls that
 * came meanwhile (a page, a heartbeat, a send) are answered before it goes on.
 */
export type Turn = () => Promise<void>;

export const nextTurn: Turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A turn of the event loop for work resumed from an answer (a response read,
 * a message): after `nextTurn` it would still run in the same turn of the
 * loop (the immediates follow its I/O), after this one only once the timers
 * ran, in the next.
 */
export const afterTimers: Turn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A job cut in steps: a generator that yields between two of its parts. The
 * same steps run at once where nothing waits (`atOnce`) or a turn of the
 * event loop apart (`inTurns`), so both ways give the same result.
 */
export type Steps<T> = Generator<void, T, void>;

export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function inTurns<T>(steps: Steps<T>, turn: Turn = nextTurn): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await turn();
  }
}
