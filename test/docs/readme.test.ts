import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, commandProblem, linkProblem, linksOf, npmCommandsOf } from './markdown.ts';

/**
 * The README and docs/ tell a trader and an engineer what to run and where to
 * read on: every npm command they name must exist in package.json, and every
 * relative link must lead to a file and, when it names one, a heading.
 */
const root = join(import.meta.dirname, '..', '..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const docs = [join(root, 'README.md'), ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))];
const read = (file: string) => readFileSync(file, 'utf8');

describe('the README and docs/', () => {
  it('name the commands that set up and run the app and the one that tests it', () => {
    const readme = npmCommandsOf(read(join(root, 'README.md'))).map((c) => c.text);
    expect(readme).toEqual(expect.arrayContaining(['npm install', 'npm start', 'npm run serve', 'npm test']));
  });

  it('keep the README a trader reads through: under 300 lines, the rest in docs/', () => {
    expect(read(join(root, 'README.md')).trimEnd().split('\n').length).toBeLessThan(300);
  });

  it.each(docs.map((file) => [file.slice(root.length + 1), file]))('%s names only npm commands that exist', (_name, file) => {
    const problems = npmCommandsOf(read(file)).map((c) => commandProblem(c, scripts)).filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it.each(docs.map((file) => [file.slice(root.length + 1), file]))('%s links only to files and headings that exist', (_name, file) => {
    const problems = linksOf(read(file)).map((target) => linkProblem(root, file, target)).filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it('link every file in docs/ from the README', () => {
    const linked = new Set(linksOf(read(join(root, 'README.md'))).map((t) => t.split('#')[0]));
    const unlinked = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && !linked.has(`docs/${f}`));
    expect(unlinked).toEqual([]);
  });
});

describe('the check itself', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  function repoWith(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'desk-docs-'));
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  it('reads commands in code spans and blocks, not in prose', () => {
    const md = 'Run npm run prose.\n\n```sh\nnpm ci\nnpm run build && npm run bench -- --scale\n```\n\nThen `npm start` or `npm run sign:update -- <folder>`.\n';
    expect(npmCommandsOf(md).map((c) => [c.command, c.script])).toEqual([
      ['ci', null], ['run', 'build'], ['run', 'bench'], ['start', null], ['run', 'sign:update'],
    ]);
  });

  it('refuses a script package.json lacks, a missing start or test, and an npm command outside the list', () => {
    const have = { start: 'x', build: 'y' };
    const problems = npmCommandsOf('`npm run build` `npm run serve` `npm start` `npm test` `npm install` `npm publish`')
      .map((c) => commandProblem(c, have));
    expect(problems).toEqual([
      null,
      '"npm run serve": package.json has no script "serve"',
      null,
      '"npm test": package.json has no script "test"',
      null,
      '"npm publish": "publish" is neither a script nor an npm command the docs may use',
    ]);
  });

  it('makes the anchors GitHub makes', () => {
    const md = '# What `npm test` runs\n## Your data: backups, a full disk\n## The sandbox\'s past\n## Notes\n## Notes\n```sh\n# not a heading\n```\n';
    expect([...anchorsOf(md)]).toEqual(['what-npm-test-runs', 'your-data-backups-a-full-disk', 'the-sandboxs-past', 'notes', 'notes-1']);
  });

  it('refuses a missing file, a missing heading, a link out of the repository and a badge of a missing workflow', () => {
    const repo = repoWith({ 'docs/a.md': '# Here\n', 'build/x.png': '', '.github/workflows/ci.yml': '' });
    const readme = join(repo, 'README.md');
    const doc = join(repo, 'docs', 'a.md');
    expect(linkProblem(repo, readme, 'docs/a.md#here')).toBeNull();
    expect(linkProblem(repo, readme, 'build/x.png')).toBeNull();
    expect(linkProblem(repo, readme, '../../actions/workflows/ci.yml/badge.svg')).toBeNull();
    expect(linkProblem(repo, doc, '../../../actions/workflows/ci.yml')).toBeNull();
    expect(linkProblem(repo, readme, 'https://example.com/nowhere')).toBeNull();
    expect(linkProblem(repo, readme, 'docs/b.md')).toBe('README.md: (docs/b.md): no such file');
    expect(linkProblem(repo, readme, 'docs/a.md#there')).toBe('README.md: (docs/a.md#there): no heading makes #there');
    expect(linkProblem(repo, doc, '../../actions/workflows/ci.yml')).toBe('docs/a.md: (../../actions/workflows/ci.yml) leaves the repository');
    expect(linkProblem(repo, readme, '../elsewhere.md')).toBe('README.md: (../elsewhere.md) leaves the repository');
    expect(linkProblem(repo, readme, '../../actions/workflows/release.yml')).toBe('README.md: (../../actions/workflows/release.yml) names a workflow that does not exist');
  });

  it('finds links and images in prose, nested ones included, and none in code', () => {
    const md = '[![CI](a/badge.svg)](a/ci.yml) see [docs](docs/x.md#y) and `[not](a link)`\n```\n[nor](this)\n```\n';
    expect(linksOf(md)).toEqual(['a/badge.svg', 'a/ci.yml', 'docs/x.md#y']);
  });
});
