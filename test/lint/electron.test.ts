import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import allowed from '../../build/electron-allowed.json' with { type: 'json' };

/**
 * Where `electron` may be imported, as build/electron-allowed.json lists it
 * (the only place it is written; eslint.config.js reads it too): the lint
 * lets an import through inside each listed place and refuses it in every
 * other folder, and no file of the tree imports it anywhere else.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const places = [...allowed.main, ...allowed.preload, ...allowed.tests];

/** A listed place is a folder (`dir/**`) or one file. */
const inPlace = (file: string, place: string) => (place.endsWith('/**') ? file.startsWith(place.slice(0, -2)) : file === place);
const allowedFile = (file: string) => places.some((place) => inPlace(file, place));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The package's name, kept apart so this file's own text imports nothing. */
const ELECTRON = 'electron';

async function lint(filePath: string) {
  const [result] = await eslint.lintText(`import { app } from '${ELECTRON}';\nexport const used = app;\n`, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

/** A file in the place: the file itself, or a probe in the folder. */
const probeIn = (place: string) => (place.endsWith('/**') ? `${place.slice(0, -2)}probe.ts` : place);

/** Every folder a file may sit in, one probe each: none of them is a listed place. */
const ELSEWHERE = [
  'src-main/main-thread/probe.ts', 'src-main/main-thread/server/probe.ts', 'src-main/main-thread/keychain.ts', 'src-preload/socket.ts', 'src-main/worker/probe.ts', 'src-main/ipc/probe.ts', 'src-main/core/probe.ts', 'src-main/core/data/probe.ts',
  'src-main/sandbox/probe.ts', 'src-shared/probe.ts', 'src-renderer/src/probe.ts', 'test/core/probe.test.ts', 'test/e2e/probe.spec.ts', 'build/probe.ts',
];

/** The files of the tree that could import a package, under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|cts|js|mjs|cjs|vue)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

const IMPORTS_ELECTRON = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]electron['"]/;

describe('where electron may be imported (build/electron-allowed.json)', () => {
  it('lists folders and files only', () => {
    expect(places.length).toBeGreaterThan(0);
    for (const place of places) expect(place, place).toMatch(/^[\w.-]+(\/[\w.-]+)*(\/\*\*)?$/);
  });

  for (const place of places) {
    it(`lets an import through in ${place}`, async () => {
      expect(await lint(probeIn(place))).toEqual([]);
    });
  }

  for (const file of ELSEWHERE) {
    it(`refuses an import in ${file}`, async () => {
      expect(allowedFile(file)).toBe(false);
      expect(await lint(file)).toEqual([{ rule: 'no-restricted-imports', message: expect.stringContaining('electron') }]);
    });
  }

  it('is imported nowhere else in the tree', () => {
    const files = ['src-main', 'src-preload', 'src-shared', 'src-renderer', 'test', 'build'].flatMap(sources);
    const importing = files.filter((file) => IMPORTS_ELECTRON.test(readFileSync(join(root, file), 'utf8')));
    expect(importing.length).toBeGreaterThan(0);
    expect(importing.filter((file) => !allowedFile(file))).toEqual([]);
  });
});
