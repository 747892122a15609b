import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The renderer's screens reach main through the Pinia stores: a component, a
 * view or a composable that imports the bridge (api.ts) fails the lint with
 * a message that says where the call belongs, while a store may import it.
 * The probes are linted as text under a path in each folder (`lintText` with
 * `filePath`): nothing is written to the tree.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

const script = (body: string) => `<script setup lang="ts">\n${body}</script>\n\n<template>\n  <p>{{ used }}</p>\n</template>\n`;
const valueImport = (spec: string) => `import { call } from '${spec}';\nexport const used = call;\n`;

async function lint(filePath: string, text: string) {
  const [result] = await eslint.lintText(text, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

const refusal = (rule: string) => [{ rule, message: expect.stringContaining('through the Pinia store of the area, never api.ts') }];

describe('the renderer\'s screens talk to stores, stores to the bridge (eslint.config.js)', () => {
  it('refuses the bridge in a component, a view and a composable', async () => {
    expect(await lint('src-renderer/src/components/Probe.vue', script(`import { call } from '../api.ts';\nconst used = call;\n`))).toEqual(refusal('no-restricted-imports'));
    expect(await lint('src-renderer/src/views/ProbeView.vue', script(`import { errorViewOf } from '../api.ts';\nconst used = errorViewOf;\n`))).toEqual(refusal('no-restricted-imports'));
    expect(await lint('src-renderer/src/composables/probe.ts', valueImport('../api.ts'))).toEqual(refusal('no-restricted-imports'));
    expect(await lint('src-renderer/src/components/deep/probe.ts', valueImport('../../api'))).toEqual(refusal('no-restricted-imports'));
  });

  it('refuses it as a dynamic import too', async () => {
    expect(await lint('src-renderer/src/composables/probe.ts', `export const load = () => import('../api.ts');\n`)).toEqual(refusal('no-restricted-syntax'));
  });

  it('lets the stores import it, and the screens import the stores', async () => {
    expect(await lint('src-renderer/src/stores/probe.ts', valueImport('../api.ts'))).toEqual([]);
    expect(await lint('src-renderer/src/components/probe.ts', `import { useKeyStore } from '../stores/key.ts';\nexport const used = useKeyStore;\n`)).toEqual([]);
  });

  it('keeps the renderer layer\'s own rules in the screens', async () => {
    const messages = await lint('src-renderer/src/components/probe.ts', valueImport('../../../src-main/core/clock.ts'));
    expect(messages).toEqual([{ rule: 'no-restricted-imports', message: expect.stringContaining('src-renderer/ may import only src-shared') }]);
  });
});
