/**
 * History records in parts, as the other long jobs do: a load of twenty
 * thousand trades is written RECORD_PART trades per transaction, and the
 * event loop is given back between two parts, so the heartbeat, the sends
 * and the pages run meanwhile. A recording is a generator that yields
 * between its parts; the live watcher's recordings are run a turn apart
 * (`inTurns`), a sandbox's past all at once (`atOnce`).
 */
export { atOnce, inTurns, type Steps } from '../turn.ts';

/** Trades (or rows) per transaction: a part of this many holds the loop a few milliseconds. */
export const RECORD_PART = 250;

export function inParts<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}
