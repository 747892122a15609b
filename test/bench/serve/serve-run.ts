import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ChannelOutput } from '../../../src-shared/contract.ts';
import { connectRouter, signIn, type SocketRouter } from '../../e2e/server/server-client.ts';
import { logEntries, startServe, type ServeProcess } from '../../e2e/server/serve-process.ts';
import { call } from '../../support/router-call.ts';
import { pageOffsets, PAGE_ROWS } from '../page-samples.ts';

/**
 * One fresh server process of the serve bench: `out/main/serve.cjs` as
 * `npm run serve` starts it (through bin/marketplace-desk.js, its Node flags
 * and environment), on a profile of 50,000 listings, in live mode
 * against the parent's simulator, with the bench's probe loaded beside it
 * (`loop-probe.mjs`). What it measures, over the real HTTP and WebSocket:
 * - spawn → the `listening` line, and spawn → the first Listings page
 *   answered over the socket (a script's bearer token: a browser's session
 *   ends with the process, so its first page after a start waits for a
 *   sign-in the trader types);
 * - `ledger:page` over the browser's socket, a page at a time across the ledger;
 * - the process's RSS with one browser connected (signed in, the page and
 *   its socket open, Listings answered), after a GC of the main thread,
 *   before the pages below are read (where the desktop path's is read), and
 *   again after them;
 * - `sessions` browser sessions connected at once while one of them edits a
 *   price in a draft `edits` times: the `drafts:changed` events each session
 *   received, and the main thread's event loop meanwhile.
 */

const PROBE = pathToFileURL(fileURLToPath(new URL('./loop-probe.mjs', import.meta.url))).href;

export interface ServeRunTask {
  readonly profileDir: string;
  readonly credentialsDir: string;
  /** A bearer token made once for the profile (its access files are copied with it). */
  readonly token: string;
  readonly clock: { readonly scale: number; readonly origin: number };
  readonly listings: number;
  readonly pageSamples: number;
  readonly sessions: number;
  readonly edits: number;
}

export interface ServeRunFigures {
  readonly startToListeningMs: number;
  readonly startToFirstPageMs: number;
  readonly pageMs: readonly number[];
  readonly rssMb: number;
  /** The same with the script's socket alone, before any browser signed in. */
  readonly rssBeforeSignInMb: number;
  /** The same after the sampled pages were read by that browser (the data worker's garbage of them not collected). */
  readonly rssAfterPagesMb: number;
  /** The main thread's heap then (the rest of the RSS is the data worker's and native memory). */
  readonly mainHeapMb: number;
  /** drafts:changed events each session received while one edited a price `edits` times. */
  readonly eventsPerSession: readonly number[];
  readonly eventsSent: number;
  readonly loopP99Ms: number;
  readonly loopMaxMs: number;
  /** Node's flags and MALLOC_ARENA_MAX the server ran with (the launcher's). */
  readonly launchedWith: string;
}

const probeLine = z.object({
  benchProbe: z.literal(true), p99Ms: z.number(), maxMs: z.number(), rssMb: z.number(), mainHeapMb: z.number(),
  execArgv: z.array(z.string()), mallocArenas: z.string().nullable(),
});
type ProbeLine = z.infer<typeof probeLine>;

const round = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runServe(task: ServeRunTask): Promise<ServeRunFigures> {
  const t0 = performance.now();
  const server = await startServe({
    profileDir: task.profileDir,
    throughLauncher: true,
    nodeArgs: ['--import', PROBE],
    env: { CREDENTIALS_DIRECTORY: task.credentialsDir },
    testConfig: { clock: task.clock },
  });
  const opened: SocketRouter[] = [];
  try {
    const startToListeningMs = performance.now() - t0;
    const script = await connectRouter(server.url, { kind: 'token', token: task.token });
    opened.push(script);
    const first = await page(script, 0);
    const startToFirstPageMs = performance.now() - t0;
    if (first.total !== task.listings) throw new Error(`the first page is not the profile's: ${first.total} rows (expected ${task.listings})`);

    // Read where the desktop path's is: just after the first page, before the pages below are read.
    // Before any sign-in: a password's scrypt takes 32 MiB on a thread of libuv's pool, which the allocator may keep.
    const rssBeforeSignInMb = (await probe(server)).rssMb;
    await script.close();
    opened.length = 0;

    // One browser: signed in, its page loaded, its socket open on Listings.
    const browser = await openBrowser(server.url);
    opened.push(browser);
    await page(browser, 0);
    const { rssMb, mainHeapMb, execArgv, mallocArenas } = await probe(server);

    const pageMs: number[] = [];
    for (const offset of pageOffsets(task.listings, task.pageSamples)) {
      const before = performance.now();
      await page(browser, offset);
      pageMs.push(round(performance.now() - before));
    }
    // The data worker's garbage of those pages is not collected here (the probe runs on the main thread).
    const rssAfterPagesMb = (await probe(server)).rssMb;

    const sessions = [browser, ...(await Promise.all(Array.from({ length: task.sessions - 1 }, () => openBrowser(server.url))))];
    opened.push(...sessions.slice(1));
    const seen = sessions.map(() => new Set<number>());
    sessions.forEach((s, i) => s.subscribe((event, payload) => {
      const changed = event === 'drafts:changed' ? z.object({ stamp: z.number() }).safeParse(payload) : null;
      if (changed?.success) seen[i]?.add(changed.data.stamp);
    }));
    // A draft of its own (the new draft is the current one), edited a price at a time.
    await call(browser, 'drafts:create', { name: 'Price edits' });
    const row = first.rows[0];
    if (row?.domain !== 'listings') throw new Error('the first page has no listing');
    const assetId = row.asset_id;
    await sleep(300);
    for (const s of seen) s.clear();
    await probe(server);
    for (let i = 0; i < task.edits; i++) await call(browser, 'drafts:addChanges', { changes: [{ kind: 'listing.edit', asset_id: assetId, price: 100 + i }] });
    const deadline = performance.now() + 10_000;
    while (performance.now() < deadline && !seen.every((s) => s.size >= task.edits)) await sleep(20);
    // Any event still on its way arrives before the count.
    await sleep(300);
    const loop = await probe(server);
    const sent = new Set(seen.flatMap((s) => [...s]));
    return {
      startToListeningMs: round(startToListeningMs),
      startToFirstPageMs: round(startToFirstPageMs),
      pageMs,
      rssMb,
      rssBeforeSignInMb,
      rssAfterPagesMb,
      mainHeapMb,
      eventsPerSession: seen.map((s) => s.size),
      eventsSent: sent.size,
      loopP99Ms: loop.p99Ms,
      loopMaxMs: loop.maxMs,
      launchedWith: [...execArgv, `MALLOC_ARENA_MAX=${mallocArenas ?? 'unset'}`].join(' '),
    };
  } finally {
    await Promise.all(opened.map((r) => r.close()));
    await server.stop('SIGTERM');
  }
}

function page(router: SocketRouter, offset: number): Promise<ChannelOutput<'ledger:page'>> {
  return call(router, 'ledger:page', { domain: 'listings', filter: {}, offset, limit: PAGE_ROWS });
}

/** A browser's session: signed in with the password, the desk's page and its assets fetched, its socket open. */
async function openBrowser(url: string): Promise<SocketRouter> {
  const credentials = await signIn(url);
  if (credentials.kind !== 'session') throw new Error('a sign-in gave no session');
  const html = await (await fetch(`${url}/`, { headers: { cookie: credentials.cookie } })).text();
  for (const src of html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)) {
    await (await fetch(`${url}${src[1]}`, { headers: { cookie: credentials.cookie } })).arrayBuffer();
  }
  return connectRouter(url, credentials);
}

/** Signals the probe and reads its line: the loop since the signal before, and the RSS after a GC. */
async function probe(server: ServeProcess): Promise<ProbeLine> {
  const lines = () => logEntries(server.lines()).filter((e) => e.benchProbe === true);
  const before = lines().length;
  process.kill(server.pid, 'SIGUSR2');
  const deadline = performance.now() + 5_000;
  while (lines().length === before) {
    if (performance.now() > deadline) throw new Error('the server\'s probe did not answer');
    await sleep(20);
  }
  return probeLine.parse(lines().at(-1));
}
