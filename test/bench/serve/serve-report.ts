import { percentile } from '../page-samples.ts';
import { cell, goalOf, spread, verdict, type Goal, type Spread } from '../scale/scale-report.ts';
import type { ServeRunFigures } from './serve-run.ts';

/**
 * The serve block's goals, medians and table: each figure the median of the
 * runs (min–max), the desktop path's beside it where both shells have one.
 */

export const SERVE_GOALS = { startToFirstPageMs: 300, rssMb: 130, pageP95Ms: 10, loopP99Ms: 10 } as const;

type Judged = Spread & { readonly goal: Goal | null };

export interface ServeFigures {
  readonly runs: number;
  readonly sessions: number;
  readonly edits: number;
  readonly pageSamples: number;
  readonly listings: number;
  readonly realSeconds: number;
  readonly serve: {
    readonly startToListeningMs: Spread;
    readonly startToFirstPageMs: Judged;
    readonly rssMb: Judged;
    readonly rssBeforeSignInMb: Spread;
    readonly rssAfterPagesMb: Spread;
    readonly mainHeapMb: Spread;
    readonly pageP95Ms: Judged;
    readonly loopP99Ms: Judged;
    readonly loopMaxMs: Spread;
    readonly eventsSent: Spread;
    /** Sessions, over all runs, that missed any event another session received. */
    readonly sessionsMissingEvents: number;
  };
  readonly desktop: {
    readonly bootToFirstPageMs: Spread;
    /** After a GC of the main thread alone, as the server's is read; and after the data worker's too. */
    readonly rssMainGcMb: Spread;
    readonly rssMb: Spread;
    readonly pageP95Ms: Spread;
  };
  readonly goalsMet: number;
  readonly goalsMissed: number;
}

export interface ServeInputs extends Omit<ServeFigures, 'serve' | 'goalsMet' | 'goalsMissed'> {
  readonly served: readonly ServeRunFigures[];
}

export function summarizeServe(input: ServeInputs): ServeFigures {
  const { served, ...rest } = input;
  const judged = (values: readonly (number | null)[], goal: number): Judged => {
    const s = spread(values);
    return { ...s, goal: goalOf(s, goal) };
  };
  const serve = {
    startToListeningMs: spread(served.map((r) => r.startToListeningMs)),
    startToFirstPageMs: judged(served.map((r) => r.startToFirstPageMs), SERVE_GOALS.startToFirstPageMs),
    rssMb: judged(served.map((r) => r.rssMb), SERVE_GOALS.rssMb),
    rssBeforeSignInMb: spread(served.map((r) => r.rssBeforeSignInMb)),
    rssAfterPagesMb: spread(served.map((r) => r.rssAfterPagesMb)),
    mainHeapMb: spread(served.map((r) => r.mainHeapMb)),
    pageP95Ms: judged(served.map((r) => percentile(r.pageMs, 95)), SERVE_GOALS.pageP95Ms),
    loopP99Ms: judged(served.map((r) => r.loopP99Ms), SERVE_GOALS.loopP99Ms),
    loopMaxMs: spread(served.map((r) => r.loopMaxMs)),
    eventsSent: spread(served.map((r) => r.eventsSent)),
    sessionsMissingEvents: served.reduce((n, r) => n + r.eventsPerSession.filter((e) => e < r.eventsSent).length, 0),
  };
  const goals = [serve.startToFirstPageMs.goal, serve.rssMb.goal, serve.pageP95Ms.goal, serve.loopP99Ms.goal].filter((g): g is Goal => g !== null);
  return { ...rest, realSeconds: Math.round(rest.realSeconds), serve, goalsMet: goals.filter((g) => g.met).length, goalsMissed: goals.filter((g) => !g.met).length };
}

const judgedCell = (s: Judged, unit: string, digits = 0) => `${cell(s, unit, digits)} ${verdict(s.goal)}`.trim();

/** The block as printed: the table docs/performance.md and docs/server.md hold. */
export function formatServe(f: ServeFigures): string {
  const S = f.serve;
  const D = f.desktop;
  return [
    `Serve: the server shell (out/main/serve.cjs, plain Node) beside the desktop path (the main process on the Electron double),`,
    `${f.listings.toLocaleString('en')} listings with a 47k-change draft, live against the simulator; one fresh process of each per run,`,
    `median of ${f.runs} runs (min–max), shells alternating; ${f.realSeconds} s in all.`,
    '',
    '| figure | server (over HTTP and its WebSocket) | desktop path (through ipcMain) |',
    '|---|---|---|',
    `| start → listening | ${cell(S.startToListeningMs, ' ms')} | — |`,
    `| start → first Listings page answered | ${judgedCell(S.startToFirstPageMs, ' ms')} | ${cell(D.bootToFirstPageMs, ' ms')} |`,
    `| RSS after a GC of the main thread: one browser connected (desktop: the window's renderer is a process apart, not counted) | ${judgedCell(S.rssMb, ' MB')} | ${cell(D.rssMainGcMb, ' MB')} |`,
    `| the same before any browser signed in (a script's token alone) | ${cell(S.rssBeforeSignInMb, ' MB')} | — |`,
    `| the same after the browser read the ${f.pageSamples} pages below (the data worker's garbage not collected) | ${cell(S.rssAfterPagesMb, ' MB')} | — |`,
    `| the same after the data worker's GC too | — | ${cell(D.rssMb, ' MB')} |`,
    `| of which the main thread's heap | ${cell(S.mainHeapMb, ' MB', 1)} | — |`,
    `| ledger:page p95 (${f.pageSamples} pages of 100 across the ledger) | ${judgedCell(S.pageP95Ms, ' ms', 1)} | ${cell(D.pageP95Ms, ' ms', 1)} |`,
    `| ${f.sessions} sessions, ${f.edits} price edits: main thread's event-loop delay p99 | ${judgedCell(S.loopP99Ms, ' ms', 1)} | — |`,
    `| the same: event-loop delay max | ${cell(S.loopMaxMs, ' ms', 1)} | — |`,
    `| the same: drafts:changed events each session received | ${cell(S.eventsSent, '')} of ${f.edits} edits each; ${S.sessionsMissingEvents} sessions missed any | — |`,
    '',
    `Goals met: ${f.goalsMet}, not met: ${f.goalsMissed}.`,
  ].join('\n');
}
