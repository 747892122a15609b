import type { ChildResult } from './child.ts';
import type { JobFigures } from './jobs.ts';

/**
 * The scale block's goals, medians and table. Every figure is the median of
 * the runs, with the range beside it; each goal is printed with whether the
 * median meets it. A missed goal is a finding, not a failure of the bench.
 */

export const PROFILE_NAMES = ['empty', '50k', '500k'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
export const isProfileName = (name: string): name is ProfileName => (PROFILE_NAMES as readonly string[]).includes(name);

export const SCALE_GOALS = {
  bootToFirstPageMs: { '50k': 150, '500k': 300 } as Partial<Record<ProfileName, number>>,
  rssMb: { empty: 120, '50k': 160, '500k': 250 } as Partial<Record<ProfileName, number>>,
  job: { loopDelayMaxMs: 50, heartbeatLateMs: 100, pageMaxMs: 100 },
  csvPreview1MHeapGrowthMb: 150,
  applyToFirstRequestMs: 100,
} as const;

/** A median with the range it came from. */
export interface Spread {
  readonly median: number | null;
  readonly min: number | null;
  readonly max: number | null;
}

export interface Goal {
  readonly goal: number;
  readonly met: boolean;
}

export interface ProfileFigures {
  readonly listings: number;
  readonly draftChanges: number;
  readonly bootToFirstPageMs: Spread & { readonly goal: Goal | null };
  readonly bootToReadyMs: Spread;
  readonly rssMb: Spread & { readonly goal: Goal | null };
  readonly workerHeapMb: Spread;
  /** Store states seen after start in any run (a worker restart shows as 'restarting'). */
  readonly storeStates: readonly string[];
}

export interface JobSummary {
  readonly job: string;
  readonly ms: Spread;
  readonly loopDelayMaxMs: Spread & { readonly goal: Goal | null };
  readonly heartbeatLateMs: Spread & { readonly goal: Goal | null };
  readonly pageMaxMs: Spread & { readonly goal: Goal | null };
  readonly heapGrowthMb: Spread & { readonly goal: Goal | null };
  readonly errors: readonly string[];
}

export interface ScaleFigures {
  readonly runs: number;
  readonly realSeconds: number;
  readonly profiles: Record<ProfileName, ProfileFigures>;
  /** The jobs, at 50,000 listings with the 47,000-change draft. */
  readonly jobs: readonly JobSummary[];
  readonly applyToFirstRequestMs: Spread & { readonly goal: Goal | null };
  readonly goalsMet: number;
  readonly goalsMissed: number;
}

export function spread(values: readonly (number | null)[]): Spread {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (known.length === 0) return { median: null, min: null, max: null };
  const mid = Math.floor(known.length / 2);
  const median = known.length % 2 === 1 ? (known[mid] ?? 0) : ((known[mid - 1] ?? 0) + (known[mid] ?? 0)) / 2;
  return { median: Math.round(median * 10) / 10, min: known[0] ?? null, max: known.at(-1) ?? null };
}

/** The goal and whether the median meets it; null when there is no goal, or no figure to judge. */
export const goalOf = (s: Spread, goal: number | undefined): Goal | null =>
  goal === undefined || s.median === null ? null : { goal, met: s.median <= goal };

export function summarize(
  results: readonly { profile: ProfileName; result: ChildResult; applyToFirstRequestMs: number | null }[],
  runs: number,
  realSeconds: number,
): ScaleFigures {
  const profile = (name: ProfileName): ProfileFigures => {
    const mine = results.filter((r) => r.profile === name).map((r) => r.result);
    const first = mine[0];
    const boot = spread(mine.map((r) => r.bootToFirstPageMs));
    const rss = spread(mine.map((r) => r.rssMb));
    return {
      listings: first?.listings ?? 0,
      draftChanges: first?.draftChanges ?? 0,
      bootToFirstPageMs: { ...boot, goal: goalOf(boot, SCALE_GOALS.bootToFirstPageMs[name]) },
      bootToReadyMs: spread(mine.map((r) => r.bootToReadyMs)),
      rssMb: { ...rss, goal: goalOf(rss, SCALE_GOALS.rssMb[name]) },
      workerHeapMb: spread(mine.map((r) => r.workerHeapMb)),
      storeStates: [...new Set(mine.flatMap((r) => r.storeStates))],
    };
  };
  const withJobs = results.filter((r) => r.result.jobs.length > 0);
  const names = [...new Set(withJobs.flatMap((r) => r.result.jobs.map((j) => j.job)))];
  const jobs = names.map((job): JobSummary => {
    const figures = withJobs.map((r) => r.result.jobs.find((j) => j.job === job)).filter((j): j is JobFigures => j !== undefined);
    const pick = (f: (j: JobFigures) => number | null) => spread(figures.map(f));
    const loop = pick((j) => j.loopDelayMaxMs);
    const late = pick((j) => j.heartbeatLateMs);
    const page = pick((j) => j.pageMaxMs);
    const heap = pick((j) => j.heapGrowthMb);
    const G = SCALE_GOALS.job;
    return {
      job,
      ms: pick((j) => j.ms),
      loopDelayMaxMs: { ...loop, goal: goalOf(loop, G.loopDelayMaxMs) },
      heartbeatLateMs: { ...late, goal: goalOf(late, G.heartbeatLateMs) },
      pageMaxMs: { ...page, goal: goalOf(page, G.pageMaxMs) },
      heapGrowthMb: { ...heap, goal: goalOf(heap, job === 'csvPreview1M' ? SCALE_GOALS.csvPreview1MHeapGrowthMb : undefined) },
      errors: [...new Set(figures.flatMap((j) => (j.error ? [j.error] : [])))],
    };
  });
  const apply = spread(withJobs.map((r) => r.applyToFirstRequestMs));
  const figures = {
    runs,
    realSeconds: Math.round(realSeconds),
    profiles: { empty: profile('empty'), '50k': profile('50k'), '500k': profile('500k') },
    jobs,
    applyToFirstRequestMs: { ...apply, goal: goalOf(apply, SCALE_GOALS.applyToFirstRequestMs) },
  };
  const goals = [
    ...Object.values(figures.profiles).flatMap((p) => [p.bootToFirstPageMs.goal, p.rssMb.goal]),
    ...jobs.flatMap((j) => [j.loopDelayMaxMs.goal, j.heartbeatLateMs.goal, j.pageMaxMs.goal, j.heapGrowthMb.goal]),
    figures.applyToFirstRequestMs.goal,
  ].filter((g): g is Goal => g !== null);
  return { ...figures, goalsMet: goals.filter((g) => g.met).length, goalsMissed: goals.filter((g) => !g.met).length };
}

const n = (v: number | null, digits = 0) => (v === null ? '—' : v.toLocaleString('en', { maximumFractionDigits: digits }));
/** "1,314 (1,032–2,343)" */
export const cell = (s: Spread, unit: string, digits = 0) =>
  s.median === null ? '—' : `${n(s.median, digits)}${unit}${s.min !== s.max ? ` (${n(s.min, digits)}–${n(s.max, digits)})` : ''}`;
export const verdict = (g: Goal | null) => (g === null ? '' : g.met ? `≤ ${n(g.goal)} met` : `≤ ${n(g.goal)} NOT MET`);

/** The block as printed: the table docs/performance.md holds. */
export function formatScale(f: ScaleFigures): string {
  const P = f.profiles;
  const cols = (pick: (p: ProfileFigures) => string) => `| ${pick(P.empty)} | ${pick(P['50k'])} | ${pick(P['500k'])} |`;
  const lines = [
    `Scale: the real main process on the Electron double with its data worker, one fresh process per run,`,
    `median of ${f.runs} runs per profile (min–max), profiles alternating; ${f.realSeconds} s in all.`,
    '',
    '| figure | empty profile | 50k listings + 47k-change draft | 500k listings + 470k-change draft |',
    '|---|---|---|---|',
    `| boot → first Listings page (draft laid over) ${cols((p) => `${cell(p.bootToFirstPageMs, ' ms')} ${verdict(p.bootToFirstPageMs.goal)}`.trim())}`,
    `| of which: boot → desk open ${cols((p) => cell(p.bootToReadyMs, ' ms'))}`,
    `| RSS after the first page and a GC ${cols((p) => `${cell(p.rssMb, ' MB')} ${verdict(p.rssMb.goal)}`.trim())}`,
    `| worker heap after GC ${cols((p) => cell(p.workerHeapMb, ' MB', 1))}`,
    '',
    `Jobs at 50k listings with the 47k-change draft, each through the bridge with the heartbeat running and timed so a planned beat`,
    `falls in it; a ledger:page is asked every 25 ms meanwhile (the slowest answer shown); heap growth is the worker's peak over its`,
    `size after a GC before the job (goals: worker event-loop delay max ≤ ${SCALE_GOALS.job.loopDelayMaxMs} ms, heartbeat lateness ≤ ${SCALE_GOALS.job.heartbeatLateMs} ms, ledger:page ≤ ${SCALE_GOALS.job.pageMaxMs} ms):`,
    '',
    '| job | time | worker event-loop delay max | heartbeat lateness | ledger:page meanwhile (slowest) | worker heap growth |',
    '|---|---|---|---|---|---|',
    ...f.jobs.map((j) =>
      `| ${JOB_TITLES[j.job] ?? j.job} | ${cell(j.ms, ' ms')} | ${cell(j.loopDelayMaxMs, ' ms')} ${verdict(j.loopDelayMaxMs.goal)} | ${cell(j.heartbeatLateMs, ' ms')} ${verdict(j.heartbeatLateMs.goal)} | ${cell(j.pageMaxMs, ' ms')} ${verdict(j.pageMaxMs.goal)} | ${cell(j.heapGrowthMb, ' MB')} ${verdict(j.heapGrowthMb.goal)} |`
      ),
    '',
    `Apply → first request: ${cell(f.applyToFirstRequestMs, ' ms', 1)} ${verdict(f.applyToFirstRequestMs.goal)}`,
    `Goals met: ${f.goalsMet}, not met: ${f.goalsMissed}.`,
  ];
  const errors = f.jobs.flatMap((j) => j.errors.map((e) => `  ${j.job}: ${e}`));
  const restarts = Object.entries(P).filter(([, p]) => p.storeStates.length > 0).map(([name, p]) => `  ${name}: the store went ${p.storeStates.join(' → ')}`);
  if (errors.length > 0) lines.push('Jobs that failed:', ...errors);
  if (restarts.length > 0) lines.push('Data worker restarts:', ...restarts);
  return lines.join('\n');
}

const JOB_TITLES: Record<string, string> = {
  review: 'review of the 47k draft',
  csvExport: 'CSV export of the 47k draft',
  ledgerExport: 'CSV export of the 50k ledger',
  ledgerCheck: 'ledger check',
  csvPreview1M: '1,000,000-row CSV preview',
  csvPreview200k: '200,000-row CSV preview',
  csvCommit200k: '200,000-row CSV commit',
  bulkEdit: 'bulk edit of 50k listings (preview, then stored)',
  apply5000: 'apply of 5,000 changes',
};
