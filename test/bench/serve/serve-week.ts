/**
 * The serve block's simulated week: one real server process
 * (`out/main/serve.cjs`) on a 50,000-listing profile, live against a
 * simulator whose trades appear and move over time, both on a clock that
 * runs `scale` times faster, for seven simulated days; one script's socket
 * connected throughout, receiving the desk's events and reading a Listings
 * page every simulated hour. Meanwhile:
 * - the process's RSS (`VmRSS` of /proc, as the system sees it: no GC is
 *   forced) every simulated hour;
 * - the lapses of the automated mark the simulator saw: each time an account
 *   it had marked is seen unmarked, sampled every 20 ms of real time (a
 *   simulated 40 s at ×2,000, well inside the mark's ten minutes).
 * The drift compares the median RSS of the week's last simulated day with
 * that of its second: within the first the desk grows to its working size
 * (its first daily backup, History filled, V8's heaps grown), which the
 * first reading and the first day's median show beside it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { tradesView } from '../../../src-shared/views.ts';
import { startSandbox } from '../../../src-main/sandbox/index.ts';
import { connectRouter } from '../../e2e/server/server-client.ts';
import { logEntries, startServe, type ServeProcess } from '../../e2e/server/serve-process.ts';
import { call } from '../../support/router-call.ts';
import { percentile } from '../page-samples.ts';
import { liveBenchSettings, seedProfile } from '../scale/seed-profile.ts';
import { credentialsFor, prepareAccess, profileFolder } from './serve-access.ts';

const HOUR_MS = 3_600_000;
const LISTINGS = 50_000;
const SERVICE_LISTINGS = 5_000;
export const WEEK_GOAL = { driftPct: 10, lapses: 0 } as const;

export interface WeekOptions {
  /** How much faster than real time the week runs; default 2,000 (a week in about five minutes). */
  readonly scale?: number;
  /** Simulated days; default 7 (fewer to look into one figure). */
  readonly days?: number;
  /** Node's own flags for the server (a probe, to look into one figure). */
  readonly nodeArgs?: readonly string[];
  /** More of the server's environment (to look into one figure). */
  readonly env?: NodeJS.ProcessEnv;
  /** Told each simulated hour, with the server. */
  readonly onHour?: (hour: number, server: ServeProcess) => void;
  readonly log?: (line: string) => void;
}

export interface WeekFigures {
  readonly scale: number;
  readonly realSeconds: number;
  readonly simulatedDays: number;
  /** MB, one a simulated hour. */
  readonly rssMb: readonly number[];
  /** The first reading (a simulated hour in) and the last. */
  readonly rssFirstMb: number;
  readonly rssLastMb: number;
  /** Medians of each day's readings. */
  readonly rssFirstDayMb: number;
  readonly rssSecondDayMb: number;
  readonly rssLastDayMb: number;
  readonly rssMinMb: number;
  readonly rssMaxMb: number;
  readonly driftPct: number;
  readonly lapses: number;
  readonly lapseHours: readonly number[];
  /** The simulator's process: the real ms it had paused when it saw each lapse, and its longest pause of the week. */
  readonly lapsePausesMs: readonly number[];
  readonly longestPauseMs: number;
  readonly beats: number;
  readonly beatsRefused: number;
  readonly refusedStatuses: readonly number[];
  /** Heartbeat failures the desk logged, by the error's kind (a timeout: the answer took longer than the scaled deadline). */
  readonly beatErrors: Readonly<Record<string, number>>;
  readonly tradesSeen: number;
  readonly eventsReceived: number;
  readonly pagesFailed: number;
  readonly met: boolean;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const rssMbOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
const median = (values: readonly number[]) => percentile(values, 50) ?? NaN;

export async function runServeWeek(options: WeekOptions = {}): Promise<WeekFigures> {
  // ×1,000: a beat's 30 simulated seconds to be answered are 30 ms of real time; at ×2,000 (15 ms) a loaded machine's own delays read as lapses.
  const scale = options.scale ?? 1_000;
  const days = options.days ?? 7;
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'desk-serve-week-'));
  const timeScale = { scale, origin: Date.now() };
  const clock = scaledClock(scale, timeScale.origin);
  const service = await startSandbox({ clock, seed: 37, inventorySize: SERVICE_LISTINGS + 1_000, tradeSchedule: true, tradeMoney: true, pastDays: 0 });
  const started = performance.now();
  try {
    service.admin.setBalance(1_000_000_000);
    const serviceListings = service.admin.seedListings(SERVICE_LISTINGS).map((l) => ({
      asset_id: l.asset_id, listing_id: l.listing_id, sku: l.sku, price: l.price, promoted: l.promoted, game: l.game, user_note: '', account: service.accounts.main,
    }));
    const seedPath = join(dir, 'seed.sqlite');
    seedProfile(seedPath, {
      account: service.accounts.main,
      settings: liveBenchSettings(service.url),
      serviceListings, listings: LISTINGS, draftChanges: 0, applyDraft: false,
    });
    const profileDir = profileFolder(join(dir, 'profile'), seedPath);
    const credentialsDir = credentialsFor(dir, service.apiKey);
    // On real time: a week's clock would end the setup link before it is used.
    const token = await prepareAccess(profileDir, credentialsDir);

    const server = await startServe({ profileDir, throughLauncher: true, nodeArgs: options.nodeArgs ?? [], env: { ...options.env, CREDENTIALS_DIRECTORY: credentialsDir }, testConfig: { clock: timeScale } });
    const weekStart = clock.monotonic();
    const script = await connectRouter(server.url, { kind: 'token', token });
    const trades = new Set<string>();
    let eventsReceived = 0;
    script.subscribe((event, payload) => {
      eventsReceived += 1;
      const view = event === 'trades:changed' ? tradesView.safeParse(payload) : null;
      if (view?.success) for (const t of view.data.trades) trades.add(t.trade_id);
    });
    const accounts = [service.accounts.main, ...service.accounts.linked];
    const marked = new Map<string, boolean>();
    let lapses = 0;
    /** When each lapse was seen, in simulated hours from the start. */
    const lapseHours: number[] = [];
    // The simulator runs in this process: a pause of its own (a GC, the machine) lets its scaled clock pass a mark's
    // end before it reads the beat waiting on its socket, a lapse the desk had no part in. Each lapse says the pause before it.
    let lastTick = performance.now();
    let longestPauseMs = 0;
    const lapsePausesMs: number[] = [];
    const sampler = setInterval(() => {
      const tick = performance.now();
      const pause = tick - lastTick;
      lastTick = tick;
      longestPauseMs = Math.max(longestPauseMs, pause);
      for (const account of accounts) {
        const now = service.admin.userAgent(account).automated;
        if (marked.get(account) === true && !now) {
          lapses += 1;
          lapseHours.push(round((clock.monotonic() - weekStart) / HOUR_MS));
          lapsePausesMs.push(Math.round(pause));
        }
        marked.set(account, now);
      }
    }, 20);
    const rssMb: number[] = [];
    let pagesFailed = 0;
    try {
      for (let hour = 1; hour <= days * 24; hour++) {
        await clock.sleep(weekStart + hour * HOUR_MS - clock.monotonic());
        const page = await call(script, 'ledger:page', { domain: 'listings', filter: {}, offset: 0, limit: 100 }).catch(() => null);
        if (page?.total !== LISTINGS) pagesFailed += 1;
        rssMb.push(round(rssMbOf(server.pid)));
        options.onHour?.(hour, server);
        if (hour % 24 === 0) log(`  day ${hour / 24}: RSS ${rssMb.at(-1)} MB, ${lapses} lapses, ${trades.size} trades seen, ${service.admin.trades().length} pending at the service, ${eventsReceived} events`);
      }
    } finally {
      clearInterval(sampler);
      await script.close();
      await server.stop('SIGTERM');
    }
    const beats = service.log.requests.filter((r) => r.endpoint === 'set_user_agent');
    // The desk's own word on each beat that failed (its log's heartbeat lines), by the error's kind.
    const beatErrors: Record<string, number> = {};
    for (const e of logEntries(server.lines())) {
      if (e.msg !== 'heartbeat' || typeof e.error !== 'object' || e.error === null) continue;
      const kind = 'kind' in e.error && typeof e.error.kind === 'string' ? e.error.kind : 'other';
      beatErrors[kind] = (beatErrors[kind] ?? 0) + 1;
    }
    // The working size is reached within the first simulated day (its first backup made, History filled, V8's heaps grown):
    // the drift is the last day's median against the second day's.
    const secondDay = rssMb.slice(24, 48);
    const rssFirstDayMb = median(rssMb.slice(0, 24));
    const rssSecondDayMb = median(secondDay.length > 0 ? secondDay : rssMb);
    const rssLastDayMb = median(rssMb.slice(-24));
    const driftPct = round(((rssLastDayMb - rssSecondDayMb) / rssSecondDayMb) * 100);
    return {
      scale, realSeconds: Math.round((performance.now() - started) / 1000), simulatedDays: rssMb.length / 24,
      rssMb, rssFirstMb: rssMb[0] ?? NaN, rssLastMb: rssMb.at(-1) ?? NaN, rssFirstDayMb, rssSecondDayMb, rssLastDayMb,
      rssMinMb: Math.min(...rssMb), rssMaxMb: Math.max(...rssMb), driftPct,
      lapses, lapseHours, lapsePausesMs, longestPauseMs: Math.round(longestPauseMs), beats: beats.length, refusedStatuses: [...new Set(beats.filter((r) => r.status !== 200).map((r) => r.status))], beatErrors, beatsRefused: beats.filter((r) => r.status !== 200).length,
      tradesSeen: trades.size, eventsReceived, pagesFailed,
      met: Math.abs(driftPct) <= WEEK_GOAL.driftPct && lapses <= WEEK_GOAL.lapses,
    };
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatWeek(w: WeekFigures): string {
  const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');
  return [
    `Serve: a simulated week headless (out/main/serve.cjs, 50,000 listings, live against the simulator with trades appearing and moving),`,
    `time ×${w.scale.toLocaleString('en')}: ${w.simulatedDays} simulated days in ${w.realSeconds} s; one script's socket connected throughout.`,
    '',
    '| figure | measured | goal |',
    '|---|---|---|',
    `| RSS (VmRSS, one reading a simulated hour): first reading → last | ${w.rssFirstMb} → ${w.rssLastMb} MB | |`,
    `| RSS min–max over the week | ${w.rssMinMb}–${w.rssMaxMb} MB | |`,
    `| RSS medians: first day, second day, last day | ${w.rssFirstDayMb}, ${w.rssSecondDayMb}, ${w.rssLastDayMb} MB | |`,
    `| drift, the last day's median against the second day's | ${w.driftPct > 0 ? '+' : ''}${w.driftPct} % | within ±${WEEK_GOAL.driftPct} %: ${verdict(Math.abs(w.driftPct) <= WEEK_GOAL.driftPct)} |`,
    `| lapses of the automated mark the simulator saw | ${w.lapses} | ${WEEK_GOAL.lapses}: ${verdict(w.lapses <= WEEK_GOAL.lapses)} |`,
    `| when the lapses were seen (simulated hours from the start) | ${w.lapseHours.length === 0 ? '—' : [...new Set(w.lapseHours)].join(', ')} | |`,
    `| the simulator's own process: its pause before each lapse; its longest pause (real ms, simulated min) | ${w.lapsePausesMs.length === 0 ? '—' : [...new Set(w.lapsePausesMs)].join(', ')}; ${w.longestPauseMs} ms, ${round((w.longestPauseMs * w.scale) / 60_000)} min | |`,
    `| heartbeats the simulator received (refused, with which statuses) | ${w.beats.toLocaleString('en')} (${w.beatsRefused}${w.beatsRefused > 0 ? `: ${w.refusedStatuses.join(', ')}` : ''}) | |`,
    `| heartbeat failures the desk logged, by kind | ${Object.entries(w.beatErrors).map(([k, n]) => `${k} ${n}`).join(', ') || '—'} | |`,
    `| trades the socket was told of; events it received | ${w.tradesSeen.toLocaleString('en')}; ${w.eventsReceived.toLocaleString('en')} | |`,
    `| hourly Listings pages that failed | ${w.pagesFailed} of ${w.rssMb.length} | |`,
  ].join('\n');
}
