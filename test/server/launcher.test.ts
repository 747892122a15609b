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

/** Loaded before the launcher's own code: says, as the process ends, which of Node's modules it loaded. */
const MODULES_REPORTER = `
  process.on('exit', () => process.stdout.write(JSON.stringify(process.moduleLoadList)));
`;

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const undo of cleanup.splice(0)) undo();
});

/** Executes the launcher itself, as a shell, npm's bin link and systemd do (`node` is this test's), with `reporter` loaded first. */
function launch(reporter: string, args: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'desk-launcher-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'reporter.mjs');
  writeFileSync(file, reporter);
  return spawnSync(BIN, args, {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, NODE_OPTIONS: `--import "${pathToFileURL(file).href}"`, MALLOC_ARENA_MAX: '' },
  });
}

describe.skipIf(process.platform === 'win32')('the server\'s launcher', () => {
  it('starts Node with a 1 MB semi-space and two malloc arenas', () => {
    const run = launch(REPORTER, ['serve', '--help']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ execArgv: ['--max-semi-space-size=1'], arenas: '2' });
  });

  it('loads no HTTP client of its own before the server starts (an import of node:http loads Node\'s fetch, ~40 ms)', () => {
    const run = launch(MODULES_REPORTER, ['--help']);
    expect(run.stderr).toContain('usage: marketplace-desk serve');
    const loaded = JSON.parse(run.stdout) as string[];
    expect(loaded).toContain('NativeModule url');
    expect(loaded.filter((m) => /undici|\bhttps?\b/.test(m))).toEqual([]);
  });

  it('is what `npm run serve` runs, through node with the same semi-space (a shell on Windows runs no first line)', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const flags = readFileSync(BIN, 'utf8').split('\n')[0]?.match(/ node (.*)$/)?.[1];
    expect(flags).toBe('--max-semi-space-size=1');
    expect(scripts.serve).toMatch(new RegExp(`&& node ${flags} bin/marketplace-desk\\.js serve$`));
  });
});
