import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No two folders of the source import each other, a folder and its own
 * subfolder included: each pair is a cycle a reader must hold in mind at
 * once, and the layer rules are only readable when the imports run one way.
 * Where a folder composes a subfolder (the store runs its migrations), the
 * subfolder imports nothing back (a migration stands alone); where a
 * subfolder uses a folder's common files (the handlers use the router's
 * types), what composes it lives in a subfolder of its own (ipc/routers/).
 * Read from the files' relative imports, value and type alike.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src-main', 'src-shared', 'src-preload', 'src-renderer/src'];
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|vue)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Each folder and the folders its files import from, as paths from the repository's root. */
function folderImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const source of SOURCES) {
    for (const file of sourceFiles(join(root, source))) {
      const from = relative(root, dirname(file));
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const to = relative(root, dirname(resolve(dirname(file), match[1] ?? match[2] ?? '')));
        if (to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    }
  }
  return edges;
}

describe('folders', () => {
  it('read their imports: the store is imported by the domains, and the core by the shells', () => {
    const edges = folderImports();
    expect(edges.get('src-main/core/history')).toContain('src-main/core/store');
    expect([...edges.keys()].length).toBeGreaterThan(30);
  });

  it('never import each other', () => {
    const edges = folderImports();
    const pairs: string[] = [];
    for (const [from, targets] of edges) {
      for (const to of targets) if (from < to && edges.get(to)?.has(from)) pairs.push(`${from} <-> ${to}`);
    }
    expect(pairs).toEqual([]);
  });
});
