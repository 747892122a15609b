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
      ['../../main-thread/desktop/main-process.ts', 'main-thread'],
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
    allowed: [['./data-host.ts'], ['../core/clock.ts'], ['../ipc/routers/desk-router.ts'], ['../../src-shared/contract.ts'],
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
  'src-main/main-thread/desktop (the desktop shell\'s composition root)': {
    file: 'src-main/main-thread/desktop/main-process.ts',
    refused: [
      ['../server/http-server.ts', 'main-thread/server'],
      ['../../worker/data-host.ts', 'worker'],
    ],
    allowed: [['electron'], ['./tray.ts'], ['../desk-connection.ts']],
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
    allowed: [['./bridge/api.ts'], ['../../src-shared/money.ts'], ['vue']],
  },
};

/**
 * The layers inside core/ as the house plan states them, bottom to top: a
 * folder may import the folders of the layers below its own; among the
 * domains (layer 3) only those named before it (accounts and key only the
 * ones the plan names for them); in the top layer, data/ may import shell/.
 * Written here apart from eslint.config.js, so the config is held to the plan.
 */
const CORE_PLAN: readonly (readonly string[])[] = [
  ['base'],
  ['items', 'api'],
  ['store'],
  ['scheduler', 'heartbeat', 'settings', 'profile', 'accounts', 'key', 'ledger', 'drafts', 'bulk', 'csv', 'costs', 'history', 'apply', 'trades', 'inventory', 'pricing', 'alerts'],
  ['desk'],
  ['data', 'shell'],
];
const DOMAIN_LAYER = 3;
const NAMED_IMPORTS: Readonly<Record<string, readonly string[]>> = { accounts: ['scheduler'], key: ['accounts', 'scheduler'] };

/** The core folders `folder` may import, by the plan (the base is a layer, not a folder: everyone may import it). */
function planMay(folder: string): string[] {
  const layer = CORE_PLAN.findIndex((l) => l.includes(folder));
  const below = CORE_PLAN.slice(1, layer).flat();
  const row = CORE_PLAN[layer] ?? [];
  if (layer === DOMAIN_LAYER) {
    const named = NAMED_IMPORTS[folder];
    return named ? [...CORE_PLAN.slice(1, DOMAIN_LAYER).flat(), ...named] : [...below, ...row.slice(0, row.indexOf(folder))];
  }
  return folder === 'data' ? [...below, 'shell'] : below;
}

const CORE_NAMES = CORE_PLAN.flat().filter((f) => f !== 'base');
/** A file of a core folder, and how it names another folder of core. */
const coreFile = (folder: string) => (folder === 'base' ? 'src-main/core/probe.ts' : `src-main/core/${folder}/probe.ts`);
const coreSpec = (from: string, to: string) => `${from === 'base' ? './' : '../'}${to}/probe-target.ts`;

describe('which folder inside core/ may import which (eslint.config.js, the core layers)', () => {
  for (const folder of CORE_PLAN.flat()) {
    const may = planMay(folder);
    describe(`core/${folder === 'base' ? '*.ts' : folder}`, () => {
      for (const other of CORE_NAMES.filter((f) => f !== folder && !may.includes(f))) {
        it(`refuses an import of core/${other}/`, async () => {
          expect(await lint(coreFile(folder), coreSpec(folder, other))).toEqual([
            { rule: 'no-restricted-imports', message: expect.stringContaining(`not src-main/core/${other}/`) },
          ]);
        });
      }
      it('lets through its own files, the base, src-shared/ and every folder the plan puts below it', async () => {
        const own = folder === 'base' ? ['./clock.ts'] : ['./probe-sibling.ts', '../clock.ts', '../../../src-shared/money.ts'];
        for (const spec of [...own, ...may.map((f) => coreSpec(folder, f))]) expect({ spec, messages: await lint(coreFile(folder), spec) }).toEqual({ spec, messages: [] });
      });
    });
  }

  it('refuses a crossing however it is written: a type import, a dynamic import, an import from a folder inside a folder', async () => {
    expect(await lint('src-main/core/store/probe.ts', '../drafts/change.ts', 'type')).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('not src-main/core/drafts/') },
    ]);
    expect(await lint('src-main/core/ledger/probe.ts', '../bulk/bulk-jobs.ts', 'dynamic')).toEqual([
      { rule: 'no-restricted-syntax', message: expect.stringContaining('not src-main/core/bulk/') },
    ]);
    expect(await lint('src-main/core/store/migrations/probe.ts', '../../inventory/econ-items.ts')).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('not src-main/core/inventory/') },
    ]);
  });

  it('keeps core/\'s own rule in every folder inside it', async () => {
    expect(await lint('src-main/core/drafts/probe.ts', '../../ipc/router.ts')).toEqual([{ rule: 'no-restricted-imports', message: expect.stringContaining('ipc') }]);
    expect(await lint('src-main/core/shell/probe.ts', 'electron')).toEqual([{ rule: 'no-restricted-imports', message: expect.stringContaining('electron') }]);
  });

  it('states every folder under src-main/core/, and only those', () => {
    const folders = readdirSync(`${root}src-main/core`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(folders.sort()).toEqual([...CORE_NAMES].sort());
  });
});

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
