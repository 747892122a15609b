import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The folders' import rules, as ESLint applies them with the repository's own
 * config: for each folder, an import of every folder it may not import fails
 * with that rule's error (naming the folder), and the imports it may make
 * pass without a message. The probes are linted as text under a path inside
 * the folder (`lintText` with `filePath`): nothing is written to the tree.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

type Form = 'value' | 'type' | 'dynamic';

function probe(spec: string, form: Form): string {
  if (form === 'type') return `import type { Probe } from '${spec}';\nexport type Used = Probe;\n`;
  if (form === 'dynamic') return `export const load = () => import('${spec}');\n`;
  return `import { probe } from '${spec}';\nexport const used = probe;\n`;
}

async function lint(filePath: string, spec: string, form: Form = 'value') {
  const [result] = await eslint.lintText(probe(spec, form), { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).map((m) => ({ rule: m.ruleId, message: m.message }));
}

interface Case {
  /** A file in the folder (it need not exist). */
  file: string;
  /** Imports the folder may not make: the specifier, and a word the error must name. */
  refused: ReadonlyArray<readonly [spec: string, names: string, form?: Form]>;
  /** Imports it may make. */
  allowed: ReadonlyArray<readonly [spec: string, form?: Form]>;
}

const FOLDERS: Record<string, Case> = {
  'src-main/core': {
    file: 'src-main/core/desk/probe.ts',
    refused: [
      ['../../main-thread/data-client.ts', 'main-thread'],
      ['../../worker/data-host.ts', 'worker'],
      ['../../ipc/router.ts', 'ipc'],
      ['../../sandbox/index.ts', 'sandbox'],
      ['../../sandbox/index.ts', 'sandbox', 'type'],
      ['../../../src-renderer/src/main.ts', 'src-renderer'],
      ['../../../src-preload/bridge.ts', 'src-preload'],
      ['electron', 'electron'],
    ],
    allowed: [['../clock.ts'], ['../../../src-shared/money.ts'], ['zod'], ['node:fs']],
  },
  'src-main/ipc': {
    file: 'src-main/ipc/handlers/probe.ts',
    refused: [
      ['../../main-thread/desk-connection.ts', 'main-thread'],
      ['../../worker/desk-shell.ts', 'worker'],
      ['../../sandbox/index.ts', 'sandbox'],
      ['../../../src-preload/bridge.ts', 'src-preload'],
      ['electron', 'electron'],
    ],
    allowed: [['../router.ts'], ['../../core/clock.ts'], ['../../../src-shared/contract.ts']],
  },
  'src-main/sandbox': {
    file: 'src-main/sandbox/state/probe.ts',
    refused: [
      ['../../main-thread/main-process.ts', 'main-thread'],
      ['../../worker/desk-worker.ts', 'worker'],
      ['../../ipc/router.ts', 'ipc'],
      ['electron', 'electron'],
    ],
    allowed: [['../server.ts'], ['../../core/api/schemas.ts'], ['../../../src-shared/money.ts']],
  },
  'src-main/worker': {
    file: 'src-main/worker/probe.ts',
    refused: [
      ['../main-thread/desk-connection.ts', 'main-thread'],
      ['../main-thread/liveness.ts', 'main-thread', 'type'],
      // The production worker holds the simulator only once sandbox mode starts.
      ['../sandbox/index.ts', 'only when sandbox mode starts'],
      ['../../src-renderer/src/main.ts', 'src-renderer'],
      ['electron', 'electron'],
    ],
    allowed: [['./data-host.ts'], ['../core/clock.ts'], ['../ipc/desk-router.ts'], ['../../src-shared/contract.ts'],
      ['../sandbox/index.ts', 'dynamic'], ['../sandbox/index.ts', 'type']],
  },
  'src-main/main-thread': {
    file: 'src-main/main-thread/probe.ts',
    refused: [
      ['../worker/data-host.ts', 'worker'],
      ['../sandbox/index.ts', 'sandbox'],
      ['../sandbox/index.ts', 'sandbox', 'dynamic'],
      // What both shells compose knows neither shell.
      ['./desktop/tray.ts', 'main-thread/desktop'],
      ['./desktop/keychain.ts', 'main-thread/desktop', 'type'],
      ['./server/http-server.ts', 'main-thread/server'],
      ['./server/http-server.ts', 'main-thread/server', 'dynamic'],
      // The data client and the desk connection run under plain Node.
      ['electron', 'electron'],
    ],
    allowed: [['./liveness.ts'], ['../core/data/desk-methods.ts'], ['../ipc/router.ts'], ['../../src-shared/contract.ts']],
  },
  'src-main/main-thread (the desktop shell\'s composition root)': {
    file: 'src-main/main-thread/main-process.ts',
    refused: [
      ['./server/http-server.ts', 'main-thread/server'],
      ['../worker/data-host.ts', 'worker'],
    ],
    allowed: [['electron'], ['./desktop/tray.ts'], ['./desk-connection.ts']],
  },
  'src-main/main-thread/desktop': {
    file: 'src-main/main-thread/desktop/probe.ts',
    refused: [
      ['../../worker/desk-worker.ts', 'worker'],
      ['../../sandbox/index.ts', 'sandbox'],
      ['../server/http-server.ts', 'main-thread/server'],
      ['../../main-thread/server/http-server.ts', 'main-thread/server'],
      ['../server/http-server.ts', 'main-thread/server', 'dynamic'],
    ],
    allowed: [['electron'], ['../desk-connection.ts'], ['../keychain.ts'], ['./tray.ts'], ['../../core/shell/tray-state.ts'], ['../../ipc/handlers/platform.ts', 'type']],
  },
  'src-main/main-thread/server': {
    file: 'src-main/main-thread/server/probe.ts',
    refused: [
      ['electron', 'electron'],
      ['../desktop/tray.ts', 'main-thread/desktop'],
      ['../../main-thread/desktop/keychain.ts', 'main-thread/desktop', 'type'],
      ['../desktop/updater.ts', 'main-thread/desktop', 'dynamic'],
      ['../../worker/desk-worker.ts', 'worker'],
      ['../../sandbox/index.ts', 'sandbox'],
      ['../../../src-renderer/src/main.ts', 'src-renderer'],
    ],
    allowed: [['../desk-connection.ts'], ['../keychain.ts'], ['./sessions.ts'], ['../../core/shell/csp.ts'], ['../../ipc/router.ts'], ['../../../src-shared/contract.ts'], ['ws'], ['node:http']],
  },
  'src-shared': {
    file: 'src-shared/probe.ts',
    refused: [
      ['../src-main/core/clock.ts', 'src-main'],
      ['../src-renderer/src/main.ts', 'src-renderer'],
      ['../src-preload/bridge.ts', 'src-preload'],
      ['node:fs', 'Node built-ins'],
      ['electron', 'electron'],
    ],
    allowed: [['./money.ts'], ['zod']],
  },
  'src-preload': {
    file: 'src-preload/probe.ts',
    refused: [
      ['../src-shared/contract.ts', 'channels.ts, bridge.ts'],
      ['../src-main/core/clock.ts', 'src-main'],
      ['../src-renderer/src/main.ts', 'src-renderer'],
      ['node:path', 'Node built-ins'],
      // The socket client runs in a browser page.
      ['electron', 'electron'],
    ],
    allowed: [['../src-shared/channels.ts'], ['../src-shared/bridge.ts'], ['./socket.ts']],
  },
  'src-preload (the preload proper)': {
    file: 'src-preload/index.ts',
    refused: [['../src-shared/contract.ts', 'channels.ts, bridge.ts']],
    allowed: [['electron'], ['../src-shared/channels.ts'], ['../src-shared/bridge.ts']],
  },
  'src-renderer': {
    file: 'src-renderer/src/probe.ts',
    refused: [
      ['../../src-main/core/clock.ts', 'src-main'],
      ['../../src-main/ipc/router.ts', 'src-main', 'type'],
      ['../../src-preload/bridge.ts', 'src-preload'],
      ['node:fs', 'Node built-ins'],
      ['electron', 'electron'],
    ],
    allowed: [['./api.ts'], ['../../src-shared/money.ts'], ['vue']],
  },
};

describe('which folder may import which (eslint.config.js)', () => {
  for (const [folder, { file, refused, allowed }] of Object.entries(FOLDERS)) {
    describe(folder, () => {
      for (const [spec, names, form = 'value'] of refused) {
        it(`refuses a ${form} import of ${spec}`, async () => {
          const messages = await lint(file, spec, form);
          const rule = form === 'dynamic' ? 'no-restricted-syntax' : 'no-restricted-imports';
          expect(messages).toEqual([{ rule, message: expect.stringContaining(names) }]);
        });
      }
      for (const [spec, form = 'value'] of allowed) {
        it(`lets through a ${form} import of ${spec}`, async () => {
          expect(await lint(file, spec, form)).toEqual([]);
        });
      }
    });
  }

  it('keeps electron out of tests but the desktop layer\'s', async () => {
    expect(await lint('test/core/probe.test.ts', 'electron')).toEqual([{ rule: 'no-restricted-imports', message: expect.stringContaining('electron') }]);
    expect(await lint('test/desktop/probe.test.ts', 'electron')).toEqual([]);
  });

  it('checks every folder under src-main, and src-main holds only folders', () => {
    const folders = readdirSync(`${root}src-main`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src-main/${d.name}`);
    expect(folders.filter((f) => !(f in FOLDERS))).toEqual([]);
    const shells = readdirSync(`${root}src-main/main-thread`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src-main/main-thread/${d.name}`);
    expect(shells.filter((f) => !(f in FOLDERS))).toEqual([]);
    expect(readdirSync(`${root}src-main`).filter((name) => name.endsWith('.ts'))).toEqual([]);
  });
});
