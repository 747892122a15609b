import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { createRandom } from '../../../src-main/sandbox/catalog/prng.ts';
import { auditApply, batchesInFlight, KILL_TEST_DRAFT, prepareApplyProfile, slowWrites } from '../../core/apply/apply-audit.ts';
import { startServe, type ServeProcess } from './serve-process.ts';
import { connectRouter, setUp, signIn, type SocketRouter } from './server-client.ts';

/**
 * The server process stopped in the middle of the 5,000-change apply of the
 * crash tests, then started again on the same profile: killed outright
 * (SIGKILL) at seeded random moments while batches are on their way, or
 * asked to stop (SIGTERM), which journals the batches in flight and leaves
 * the heartbeat valid. Afterwards, as in the worker's kill test: nothing
 * created twice, no change lost, every change applied or shown as an
 * unknown outcome with its choices.
 */
const SCALE = 25; // a service minute lasts 2.4 s
const dirs: string[] = [];
test.afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface CrashDesk {
  readonly sandbox: Sandbox;
  readonly path: string;
  readonly draft: { draftId: string; changes: number };
  readonly clock: ReturnType<typeof scaledClock>;
  /** Starts the server (again) and signs the test's socket in. */
  start(): Promise<{ server: ServeProcess; router: SocketRouter }>;
}

async function crashDesk(seed: number): Promise<CrashDesk> {
  const profileDir = mkdtempSync(join(tmpdir(), 'desk-serve-crash-'));
  dirs.push(profileDir);
  const origin = Date.now();
  const clock = scaledClock(SCALE, origin);
  const sandbox = await startSandbox({ clock, seed, tradeSchedule: false, inventorySize: 6_000 });
  mkdirSync(join(profileDir, 'profiles'), { recursive: true });
  const path = join(profileDir, 'profiles', 'default.sqlite');
  const draft = prepareApplyProfile(path, sandbox, clock, KILL_TEST_DRAFT);
  // The key in a 0600 key file of the profile, as on a server without a keychain.
  writeFileSync(join(profileDir, 'api-key'), `${sandbox.apiKey}\n`, { mode: 0o600 });
  slowWrites(sandbox, 20_000);
  const testConfig = {
    clock: { scale: SCALE, origin },
    sandbox: {},
    initialSettings: { mode: 'live', serviceUrl: sandbox.url, refuseUnautomatedPosts: false },
    inventoryUrl: sandbox.url,
  };
  return {
    sandbox, path, draft, clock,
    async start() {
      const server = await startServe({ profileDir, testConfig });
      const link = server.setupLink();
      const router = await connectRouter(server.url, link ? await setUp(server.url, link) : await signIn(server.url));
      return { server, router };
    },
  };
}

async function call<T>(router: SocketRouter, channel: string, input: object = {}): Promise<T> {
  const result = await router.invoke(channel, input);
  if (!result.ok) throw new Error(`${channel}: ${result.error.kind} ${result.error.message}`);
  return result.value as T;
}
const jobState = async (router: SocketRouter) => (await call<{ job: { state: string } | null }>(router, 'apply:state')).job?.state;

function expectClean(desk: CrashDesk, audit: ReturnType<typeof auditApply>): void {
  expect(audit.counts.changes).toBe(desk.draft.changes);
  expect(audit.counts.applied).toBeGreaterThan(0);
  expect(audit.counts.duplicateCreates).toBe(0);
  expect(audit.counts.duplicateBuyOrderCreates).toBe(0);
  expect(audit.counts.lost).toBe(0);
  expect(audit.counts.otherFailed).toBe(0);
  expect(audit.mismatches).toEqual([]);
  expect(audit.unknownNotShown).toEqual([]);
  expect(audit.unknownBatches.every((u) => u.choices.length > 0)).toBe(true);
  expect(audit.keyInProfile).toBe(false);
}

test('SIGKILL mid-apply, then a restart: nothing created twice, nothing lost', async () => {
  test.setTimeout(300_000);
  const desk = await crashDesk(9);
  const random = createRandom(20_261_128);
  let { server, router } = await desk.start();
  try {
    await call(router, 'drafts:apply', { draftId: desk.draft.draftId });
    let kills = 0;
    let killedInFlight = 0;
    while (kills < 3) {
      await until('the apply to run, or to end', async () => ['running', 'done'].includes((await jobState(router)) ?? ''), 60_000);
      if ((await jobState(router)) === 'done') break;
      await new Promise((r) => setTimeout(r, 400 + Math.floor(random() * 1_500)));
      if (batchesInFlight(desk.path) > 0) killedInFlight += 1;
      await router.close();
      expect(await server.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      kills += 1;
      ({ server, router } = await desk.start());
    }
    desk.sandbox.faults.clear();
    await until('the resumed apply to end', async () => (await jobState(router)) === 'done', 180_000);
    const audit = auditApply(desk.path, desk.draft.draftId, desk.sandbox, desk.clock);
    console.log(`server kill test: ${JSON.stringify({ ...audit.counts, kills, killedWithBatchesInFlight: killedInFlight })}`);
    expect(kills).toBe(3);
    expect(killedInFlight).toBeGreaterThanOrEqual(1);
    expectClean(desk, audit);
    // The screens see the same: every unknown outcome is listed for the trader.
    const shown = await call<{ outcomes: unknown[] }>(router, 'apply:unknownOutcomes');
    expect(shown.outcomes).toHaveLength(audit.counts.unknownBatches);
  } finally {
    await router.close();
    await server.stop();
    await desk.sandbox.close();
  }
});

test('SIGTERM mid-apply stops cleanly: batches in flight journaled, the heartbeat left valid, the apply finished after a restart', async () => {
  test.setTimeout(300_000);
  const desk = await crashDesk(10);
  let { server, router } = await desk.start();
  try {
    // The mark a stop must leave valid: on a loaded machine the first beat can come after the apply's first batches.
    await until('the first heartbeat', () => desk.sandbox.admin.userAgent().automated, 60_000);
    await call(router, 'drafts:apply', { draftId: desk.draft.draftId });
    await until('batches on their way', () => batchesInFlight(desk.path) > 0, 60_000);
    await router.close();
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    const said = server.lines().join('\n');
    expect(said).toContain('"msg":"asked to stop"');
    expect(said).toContain('"msg":"closed"');
    expect(batchesInFlight(desk.path), 'every batch sent has its outcome journaled').toBe(0);
    expect(desk.sandbox.admin.userAgent().automated, 'the heartbeat is still valid').toBe(true);

    desk.sandbox.faults.clear();
    ({ server, router } = await desk.start());
    await until('the resumed apply to end', async () => (await jobState(router)) === 'done', 180_000);
    const audit = auditApply(desk.path, desk.draft.draftId, desk.sandbox, desk.clock);
    console.log(`server stop test: ${JSON.stringify(audit.counts)}`);
    expectClean(desk, audit);
    expect(audit.counts.unknownBatches).toBe(0);
  } finally {
    await router.close();
    await server.stop();
    await desk.sandbox.close();
  }
});
