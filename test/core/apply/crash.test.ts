import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scaledClock } from '../../../src-main/core/clock.ts';
import { startSandbox, type Sandbox } from '../../../src-main/sandbox/index.ts';
import { createRandom } from '../../../src-main/sandbox/catalog/prng.ts';
import { auditApply, KILL_TEST_DRAFT, prepareApplyProfile, slowWrites } from './apply-audit.ts';

/**
 * Real processes, real kills: a child applies a 5,000-change draft against
 * the sandbox (which lives here, in the parent) and is killed with SIGKILL at
 * seeded random moments; each next start recovers the journal and resumes.
 * Across all runs: no listing created twice for one asset, no change lost,
 * every change applied or shown as an unknown outcome.
 */
const SCALE = 25; // a service minute lasts 2.4 s
const KILLS = 6;
const SEED = 20_251_122;
const CHILD = fileURLToPath(new URL('./apply-child.ts', import.meta.url));

let sandbox: Sandbox | undefined;
const dir = mkdtempSync(join(tmpdir(), 'desk-crash-'));
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/** Runs one child; with `killAfterMs`, kills it that long after it has recovered and started applying. */
function runChild(env: Record<string, string>, killAfterMs: number | null): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let err = '';
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (d: Buffer) => {
      lines.push(...d.toString().split('\n').filter(Boolean));
      if (killAfterMs !== null && timer === null && lines.some((l) => l.includes('"start"'))) {
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code !== 0 && signal === null) reject(new Error(`child failed (${code}): ${err}`));
      else resolve({ code, signal, lines });
    });
  });
}

describe('apply survives SIGKILL at random moments', () => {
  it('creates nothing twice, loses nothing, and shows every unsettled change as an unknown outcome', async () => {
    const started = performance.now();
    const origin = Date.now();
    const clock = scaledClock(SCALE, origin);
    sandbox = await startSandbox({ clock, seed: 7, tradeSchedule: false, inventorySize: 6_000 });
    // The profile: accounts, 2,400 listings in the ledger, and the 5,000-change draft.
    const path = join(dir, 'profile.sqlite');
    const draft = prepareApplyProfile(path, sandbox, clock, KILL_TEST_DRAFT);
    expect(draft.changes).toBe(5_000);

    // Writes take a while (8 s of service time) so kills land on requests in flight too.
    slowWrites(sandbox, 8_000);

    // Start, kill, start again…; then one last start that runs to the end.
    const env = {
      DESK_DB: path, DESK_URL: sandbox.url, DESK_KEY: sandbox.apiKey, DESK_DRAFT: draft.draftId,
      DESK_CLOCK_ORIGIN: String(origin), DESK_CLOCK_SCALE: String(SCALE),
    };
    const random = createRandom(SEED);
    const runs: ChildRun[] = [];
    for (let i = 0; i < KILLS; i++) runs.push(await runChild(env, 100 + Math.floor(random() * 1_300)));
    runs.push(await runChild(env, null));
    const last = runs.at(-1);
    expect(last?.code).toBe(0);
    const killed = runs.filter((r) => r.signal === 'SIGKILL').length;

    // What the profile says now, against what the service holds.
    const audit = auditApply(path, draft.draftId, sandbox, clock);
    const counts = {
      ...audit.counts,
      starts: runs.length,
      killedWithSigkill: killed,
      requests: sandbox.log.requests.length,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    console.log(`crash test: ${JSON.stringify(counts)}`);

    expect(counts.changes).toBe(5_000);
    // Most starts are killed mid-apply; a late one may finish first, which is fine.
    expect(killed).toBeGreaterThanOrEqual(3);
    expect(counts.duplicateCreates).toBe(0);
    expect(counts.duplicateBuyOrderCreates).toBe(0);
    expect(counts.lost).toBe(0);
    expect(counts.otherFailed).toBe(0);
    expect(audit.mismatches).toEqual([]);
    // Every unknown change is shown, in a batch with its choices.
    expect(audit.unknownNotShown).toEqual([]);
    expect(audit.unknownBatches.every((u) => u.choices.length > 0)).toBe(true);
    // The key never reached the profile.
    expect(audit.keyInProfile).toBe(false);
  }, 120_000);
});
