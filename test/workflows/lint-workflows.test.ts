import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The `lint:workflows` step of `npm test`, run as npm runs it: it passes the
 * repository's two workflows, and fails on broken ones, saying where.
 */
const root = join(import.meta.dirname, '..', '..');
const SCRIPT = join(root, 'test', 'workflows', 'lint-workflows.mjs');
const lint = (dir?: string) => spawnSync(process.execPath, dir ? [SCRIPT, dir] : [SCRIPT], { cwd: root, encoding: 'utf8', timeout: 60_000 });

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});
function folderWith(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'desk-workflows-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('the workflow check', () => {
  it('passes the CI and release workflows', () => {
    const run = lint();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('.github/workflows/ci.yml, .github/workflows/release.yml pass the workflow schema and actionlint');
  });

  it('fails on a key the workflow schema does not have', () => {
    const ci = readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8');
    expect(ci).toContain('\n    steps:\n');
    const run = lint(folderWith({ 'ci.yml': ci.replace('\n    steps:\n', '\n    steeps:\n') }));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/ci\.yml: schema: \/jobs\/test: .*Additional property 'steeps' is not allowed/s);
  });

  it('fails on a context a key may not use, and on a broken expression', () => {
    const run = lint(folderWith({
      'ok.yml': 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n',
      'release.yml': [
        'on: push',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        "      - if: ${{ secrets.CSC_LINK != '' }}",
        '        run: echo signing',
        '      - run: echo ${{ github.ref_name ',
        '',
      ].join('\n'),
    }));
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/release\.yml:6:\d+: expression: context "secrets" is not allowed here/);
    expect(run.stderr).toMatch(/release\.yml:8:\d+: expression: /);
    expect(run.stderr).not.toContain('ok.yml');
  });

  it('fails on a folder with no workflow', () => {
    const run = lint(folderWith({ 'README.md': 'no workflows here' }));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no workflow in');
  });
});
