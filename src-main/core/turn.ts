/**
 * How a long job gives the event loop back between its slices, so calls that
 * came meanwhile (a page, a heartbeat, a send) are answered before it goes on.
 */
export type Turn = () => Promise<void>;

export const nextTurn: Turn = () => new Promise((resolve) => setImmediate(resolve));
