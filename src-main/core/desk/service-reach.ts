import type { Reach } from '../api/client.ts';
import type { Clock } from '../clock.ts';
import type { DeskStatusView } from '../../../src-shared/views.ts';

export type ServiceReach = DeskStatusView['reach'];

/**
 * Whether the shown workspace's service answered its last request, and if
 * not why and since when. Each workspace opened gets its own listener; only
 * the one shown counts, so the answers of a workspace being replaced (or of
 * one that failed to open) never colour the banner.
 */
export interface ReachTracker {
  current(): ServiceReach;
  /** A listener for the client of the workspace about to open. */
  listenerForNext(): (reach: Reach) => void;
  /** The workspace opened last is now the one shown: its reach is not known yet. */
  showLatest(): void;
}

export function createReachTracker(clock: Clock, onChange: () => void): ReachTracker {
  let reach: ServiceReach = { state: 'unknown', why: null, since: null };
  let opened = 0;
  let shown = 0;
  return {
    current: () => reach,
    listenerForNext() {
      const generation = (opened += 1);
      return (r) => {
        if (generation !== shown) return;
        const next: ServiceReach = r.reached
          ? { state: 'reachable', why: null, since: null }
          : { state: 'unreachable', why: r.why, since: reach.state === 'unreachable' ? reach.since : clock.now() };
        if (next.state === reach.state && next.why === reach.why) return;
        reach = next;
        onChange();
      };
    },
    showLatest() {
      shown = opened;
      reach = { state: 'unknown', why: null, since: null };
    },
  };
}
