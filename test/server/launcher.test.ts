import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The launcher every start of the server comes through (bin/marketplace-desk.js,
 * run by its own first line as npm, systemd and Docker run it) gives the
 * process its memory settings: V8's semi-space flag, which V8 reads as it
 * makes a thread's heap, and glibc's arena count, read before any code runs.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'marketplace-desk.js');

/** Loaded before the launcher's own code: says what the process was started with, and ends it. */
const REPORTER = `
  process.stdout.write(JSON.stringify({ execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX ?? null }));
  process.exit(0);
`;

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

describe.skipIf(process.platform === 'win32')('the server\'s launcher', () => {
  it('starts Node with a 1 MB semi-space and two malloc arenas', () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-launcher-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const reporter = join(dir, 'reporter.mjs');
    writeFileSync(reporter, REPORTER);
    // The file itself is executed, as a shell, npm's bin link and systemd execute it; `node` is this test's.
    const run = spawnSync(BIN, ['serve', '--help'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, NODE_OPTIONS: `--import "${pathToFileURL(reporter).href}"`, MALLOC_ARENA_MAX: '' },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ execArgv: ['--max-semi-space-size=1'], arenas: '2' });
  });

  it('is what `npm run serve` runs', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toMatch(/&& bin\/marketplace-desk\.js serve$/);
  });
});
