import type { NaiveFigures } from './naive.ts';
import type { ScheduledFigures } from './scheduled.ts';

/** The benchmark's goals, from the issue: near the bound, no 429, heartbeat on time. */
export const GOALS = { maxRatio: 1.05, max429: 0, maxHeartbeatLateMs: 5_000 } as const;

export interface ScenarioResult {
  id: string;
  title: string;
  scheduler: ScheduledFigures;
  naive: NaiveFigures;
}

export function goalsMet(f: ScheduledFigures): boolean {
  return (
    f.ratio <= GOALS.maxRatio &&
    f.count429 <= GOALS.max429 &&
    f.heartbeatLateMs <= GOALS.maxHeartbeatLateMs &&
    !f.heartbeatLapsed &&
    f.worstWindowUse <= 1 &&
    f.itemsDone === f.items
  );
}

const minutes = (ms: number) => (ms >= 3 * 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${(ms / 60_000).toFixed(2)} min`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function row(label: string, left: string, right: string): string {
  return `  ${label.padEnd(24)}${left.padEnd(34)}${right}`;
}

/** The human-readable table of one scenario: scheduler and naive baseline side by side. */
export function formatScenario(r: ScenarioResult): string {
  const s = r.scheduler;
  const n = r.naive;
  const steps = s.wallSteps === null ? [] : [`  the desk's wall clock stepped ${s.wallSteps} (the service's ran on; the naive run's was not stepped)`];
  return [
    `${r.title}: ${s.items.toLocaleString('en')} items, ${s.requests} requests of ≤100 items`,
    ...steps,
    row('', 'scheduler (batched, side by side)', 'naive (1 item/request, in order)'),
    row('time taken (simulated)', minutes(s.timeTakenMs), `${minutes(n.extrapolatedMs)} (extrapolated*)`),
    row('lower bound', minutes(s.lowerBoundMs), minutes(n.lowerBoundMs)),
    row('ratio to the bound', s.ratio.toFixed(3), n.ratio.toFixed(1)),
    row('429 responses', String(s.count429), `${n.count429} (in the slice)`),
    row('heartbeat lateness', `${seconds(s.heartbeatLateMs)} sent, ${seconds(s.heartbeatArrivalLateMs)} arrived`, '(not run)'),
    row('heartbeat', `${s.beats} beats, ${s.heartbeatLapsed ? 'LAPSED' : 'never lapsed'}, ≥${minutes(s.heartbeatMinMarkLeftMs)} left`, ''),
    row('mark lapses (service)', String(s.markLapses), ''),
    row('done/failed/unknown', `${s.itemsDone}/${s.itemsFailed}/${s.itemsUnknown}`, `${n.itemsInSlice} in the slice`),
    row('busiest 60-s window', `${(s.worstWindowUse * 100).toFixed(0)}% of its limit`, ''),
    `  * naive: ran for ${minutes(n.sliceMs)} of simulated time (${n.itemsInSlice} items, ${n.requestsInSlice} requests),`,
    `    extrapolated to all ${n.items.toLocaleString('en')} items at that rate (every write endpoint allows 5/min).`,
    `  goal (ratio ≤ ${GOALS.maxRatio}, no 429, heartbeat on time, never lapsed): ${goalsMet(s) ? 'met' : 'NOT MET'}`,
  ].join('\n');
}
