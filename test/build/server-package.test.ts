import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What `npm install marketplace-desk` gets, for `npx marketplace-desk serve`:
 * the package (as `npm pack` lists it, from the build `npm test` makes
 * first) carries the command, the built server with every file it imports,
 * the worker and the renderer (its sign-in page and socket client included)
 * and the systemd unit; and nothing the server loads imports Electron.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The files `npm pack` would put in the package (scripts off: the build is `npm run build`'s). */
function packed(): string[] {
  const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', shell: process.platform === 'win32' });
  expect(run.status, run.stderr).toBe(0);
  const [pack] = JSON.parse(run.stdout) as Array<{ files: Array<{ path: string }> }>;
  return (pack?.files ?? []).map((f) => f.path);
}

/** Every module the built file loads, transitively: its imports and requires (relative specifiers only; packages are dependencies). */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(root, file), 'utf8');
  for (const match of text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?:import|require)\(\s*["'](\.[^"']+)["']\s*\)/g)) {
    const spec = match[1] ?? match[2] ?? '';
    if (spec.startsWith('.')) importsOf(normalize(join(dirname(file), spec)).split('\\').join('/'), seen);
  }
  return seen;
}

describe('the package a server installs', () => {
  it('carries the command, the built server, worker and pages, and the unit; not the sources', () => {
    expect(existsSync(join(root, 'out/main/serve.cjs')), 'build first: npm run build').toBe(true);
    const files = packed();
    for (const file of ['package.json', 'README.md', 'bin/marketplace-desk.js', 'out/main/serve.cjs', 'out/main/desk-worker.cjs', 'out/renderer/index.html',
      'out/renderer/access.html', 'out/renderer/socket.js', 'build/systemd/marketplace-desk.service']) {
      expect(files, file).toContain(file);
    }
    const served = importsOf('out/main/serve.cjs');
    // The entry and the chunks it shares with the desktop's entry and the worker.
    expect(served.size).toBeGreaterThan(3);
    for (const imported of served) expect(files, `serve.cjs imports ${imported}`).toContain(imported);
    for (const imported of importsOf('out/main/desk-worker.cjs')) expect(files, `the worker imports ${imported}`).toContain(imported);
    expect(files.filter((f) => /^(src-|test\/|node_modules\/)/.test(f))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.bin).toEqual({ 'marketplace-desk': 'bin/marketplace-desk.js' });
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['ws', 'pino', 'keytar', 'zod']));
  });

  it('loads no Electron in the server: serve.cjs and all it imports', () => {
    for (const file of importsOf('out/main/serve.cjs')) {
      expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/from\s*["']electron["']|require\(["']electron["']\)|import\(["']electron["']\)/);
    }
  });
});
