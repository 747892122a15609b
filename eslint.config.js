// @ts-check
/**
 * Folders are named for where their code runs, and the blocks at the end of
 * this file state, for every folder, which folders it may import:
 *
 *   src-main/                     a shell's process (Electron's main process, or the server's
 *                                 plain Node process): two threads
 *     main-thread/                the main thread. Its own files are what both shells compose: the
 *                                 data client and the desk connection (main's side of the data
 *                                 worker), the keychain. They import neither shell's folder.
 *       desktop/                  the desktop shell: its composition root (main-process.ts;
 *                                 index.ts starts it) and the Electron adapters (window, tray,
 *                                 notifications, power, updates); never server/
 *       server/                   the server shell (`npm run serve`): HTTP, the WebSocket bridge,
 *                                 sign-in, the key file; plain Node, never desktop/ or electron
 *     worker/                     the data worker thread: its entry (desk-worker.ts) and what only
 *                                 it runs (the host of the data boundary, the desk's shell view)
 *     ipc/                        the bridge's router and handlers, on either thread (the desk's
 *                                 channels in the worker, the shell's on the main thread)
 *     core/                       plain Node, any thread: the desk itself (store, drafts, apply,
 *                                 client, scheduler, ...) and core/data/, the boundary's shared
 *                                 protocol and method maps
 *     sandbox/                    the service's simulator: loaded by the worker in sandbox mode,
 *                                 by tests and benchmarks, and by `npm run sandbox`
 *   src-preload/                  what hands the page `window.api` (src-shared/bridge.ts) and
 *                                 nothing else: over Electron's IPC (index.ts, the preload), or
 *                                 over the server's WebSocket (socket.ts)
 *   src-renderer/                 the window's page (Vue): the renderer and src-shared/ only; its
 *                                 components, views and composables reach main through the stores,
 *                                 which alone import the bridge (api.ts)
 *   src-shared/                   rules and schemas every side checks; imports no other folder
 *
 * Where `electron` may be imported is listed once, in build/electron-allowed.json
 * (read here and by test/lint/electron.test.ts).
 * no-restricted-imports does not look at `import()`, so the same table also
 * feeds no-restricted-syntax for dynamic imports; the one crossing it lets
 * through is the worker's: the simulator is imported only when sandbox mode
 * starts, never statically (type imports aside).
 */
import { readFileSync } from 'node:fs';
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';

/** Where `electron` may be imported: the main thread's adapters and composition root, the preload, the desktop layer's tests. */
const ELECTRON = /** @type {{ why: string, main: string[], preload: string[], tests: string[] }} */ (
  JSON.parse(readFileSync(new URL('./build/electron-allowed.json', import.meta.url), 'utf8'))
);
const electronAllowed = [...ELECTRON.main, ...ELECTRON.preload, ...ELECTRON.tests];
const noElectron = { name: 'electron', message: `Only ${electronAllowed.join(', ')} may import electron: ${ELECTRON.why}` };

/**
 * A relative specifier that enters a folder: the folders under src-main/ by
 * their own name (each name is used once there), the top folders by theirs.
 */
const SRC_MAIN_FOLDERS = ['main-thread', 'worker', 'ipc', 'core', 'sandbox'];
const TOP_FOLDERS = ['src-main', 'src-preload', 'src-renderer', 'src-shared'];
const entering = (/** @type {string} */ folder) => `^(\\.{1,2}/)+${folder}(/|$)`;

/** A shell's folder under main-thread/, by a specifier that names it from anywhere in src-main. */
const shellFolder = (/** @type {string} */ shell) => ({ target: `src-main/main-thread/${shell}/`, regex: `^(\\.{1,2}/)+(main-thread/)?${shell}(/|$)` });

/**
 * @typedef {{ folder: string, files: string[], may: string[], refuse?: { target: string, regex: string }[], why: string }} Layer
 * Each folder: the glob of its files, what it may import besides itself and
 * packages (a folder under src-main/ also its own top folder's files, but for
 * what `refuse` names), and why.
 * @type {Layer[]}
 */
const LAYERS = [
  {
    folder: 'src-main/core/', files: ['src-main/core/**'], may: ['src-shared'],
    why: 'core/ runs in any Node thread and is tested under Node alone: the threads, the router and the simulator are given to it, never imported.',
  },
  {
    folder: 'src-main/ipc/', files: ['src-main/ipc/**'], may: ['core', 'src-shared'],
    why: 'ipc/ runs on either thread: it knows the desk and the contract, not the thread it is bound on.',
  },
  {
    folder: 'src-main/sandbox/', files: ['src-main/sandbox/**'], may: ['core', 'src-shared'],
    why: 'the simulator stands in for the service: it shares core\'s schemas and nothing of the app.',
  },
  {
    folder: 'src-main/worker/', files: ['src-main/worker/**'], may: ['core', 'ipc', 'src-shared', 'sandbox (dynamic import, or type only)'],
    why: 'the data worker talks to the main thread only through messages (core/data/).',
  },
  {
    folder: 'src-main/main-thread/', files: ['src-main/main-thread/*.ts'], may: ['core', 'ipc', 'src-shared'], refuse: [shellFolder('desktop'), shellFolder('server')],
    why: 'the main thread starts the data worker by its file and talks to it through messages (core/data/); it never holds the simulator. '
      + 'Its own files are what both shells compose, so they know neither shell.',
  },
  {
    folder: 'src-main/main-thread/desktop/', files: ['src-main/main-thread/desktop/**'], may: ['core', 'ipc', 'src-shared', 'main-thread', 'electron'], refuse: [shellFolder('server')],
    why: 'the desktop shell runs under Electron; the server shell runs where there is no Electron, and neither holds the other.',
  },
  {
    folder: 'src-main/main-thread/server/', files: ['src-main/main-thread/server/**'], may: ['core', 'ipc', 'src-shared', 'main-thread'], refuse: [shellFolder('desktop')],
    why: 'the server shell runs under plain Node where no Electron binary exists: it composes the main thread\'s common files, never the desktop shell or electron.',
  },
  {
    folder: 'src-shared/', files: ['src-shared/**'], may: [],
    why: 'src-shared/ runs in the renderer, the preload and both threads: it imports nothing process-specific and no Node built-ins.',
  },
  {
    folder: 'src-preload/', files: ['src-preload/**'], may: ['src-shared/channels.ts', 'src-shared/bridge.ts', 'electron (index.ts)'],
    why: 'the preload must stay a few kilobytes: the channel names and the bridge are all it needs.',
  },
  {
    folder: 'src-renderer/', files: ['src-renderer/**'], may: ['src-shared'],
    why: 'the renderer runs nothing of the main process: what both sides check lives in src-shared/.',
  },
];

/**
 * The layers inside core/, bottom to top. A folder may import its own files,
 * the base (core/*.ts), src-shared/ and the core folders its entry names:
 *
 *   0  base: core/*.ts              clock, errors, events, secrets, safe text, the sleep watch, the turn between parts
 *   1  items/, api/                 item names; the service's schemas, client and transport
 *   2  store/                       SQLite, repositories, migrations, typed readers, and the row types they need
 *   3  the domains, in an order where each may import only those named before it
 *      (accounts and key only those their entries name):
 *        scheduler, heartbeat, settings, profile, accounts, key,
 *        ledger, drafts, bulk, csv, costs, history, apply, trades, inventory, pricing, alerts
 *   4  desk/                        the composition: the desk, its workspace, the opening of a profile's desk
 *   5  data/, shell/                what the main thread and the worker share (data/ names shell/'s views)
 *
 * So no two folders import each other, and the store and everything below it
 * know nothing of the domains.
 * @typedef {{ name: string, files?: string[], may: string[], why: string }} CoreFolder
 */
const BELOW_DOMAINS = ['items', 'api', 'store'];
const DOMAINS = ['scheduler', 'heartbeat', 'settings', 'profile', 'accounts', 'key', 'ledger', 'drafts', 'bulk', 'csv', 'costs', 'history', 'apply', 'trades', 'inventory', 'pricing', 'alerts'];
/** The store and below, and the domains named before `domain`. @param {string} domain */
const domainMay = (domain) => [...BELOW_DOMAINS, ...DOMAINS.slice(0, DOMAINS.indexOf(domain))];

/** @type {CoreFolder[]} */
const CORE_FOLDERS = [
  { name: 'base', files: ['src-main/core/*.ts'], may: [], why: 'the base is what every layer of the core uses, so it uses none of them.' },
  { name: 'items', may: [], why: 'the item names come from the game\'s schema alone; the store and every domain name items with them.' },
  { name: 'api', may: [], why: 'the service\'s schemas, client and transport describe the service alone; the store keeps and the domains send what they shape.' },
  { name: 'store', may: ['items', 'api'], why: 'the store keeps every domain\'s rows, so it knows no domain: the row types it needs live in it, and the domains read through its typed readers.' },
  { name: 'scheduler', may: domainMay('scheduler'), why: 'every request goes through the scheduler, so it knows no domain that sends them.' },
  { name: 'heartbeat', may: domainMay('heartbeat'), why: 'the heartbeat sends through the scheduler and knows nothing the desk does with it.' },
  { name: 'settings', may: domainMay('settings'), why: 'the trader\'s settings are read by the domains above them.' },
  { name: 'profile', may: domainMay('profile'), why: 'the profile opens, locks and backs up the store; the desk that opens on it is the composition\'s (core/desk/).' },
  { name: 'accounts', may: [...BELOW_DOMAINS, 'scheduler'], why: 'the accounts are read through the scheduler; the key and the desk build on them.' },
  { name: 'key', may: [...BELOW_DOMAINS, 'accounts', 'scheduler'], why: 'the key is checked against the accounts through the scheduler; what it needs of the trade watcher is passed in as a narrow interface it declares itself.' },
  { name: 'ledger', may: domainMay('ledger'), why: 'the ledger tables (the draft laid over the ledger, a page at a time) are what the drafts, their bulk edits and the CSV files build on.' },
  { name: 'drafts', may: domainMay('drafts'), why: 'the drafts and the draft service sit below their bulk edits, which are handed to the service by the composition.' },
  { name: 'bulk', may: domainMay('bulk'), why: 'the bulk edits write into the drafts over the ledger tables\' selections.' },
  { name: 'csv', may: domainMay('csv'), why: 'CSV import and export read and write the ledger and the drafts; history uses its format writer, so it sits below history.' },
  { name: 'costs', may: domainMay('costs'), why: 'what each item cost (first in, first out per SKU) is read from the trades the history keeps and set by the trader (by hand or CSV); History\'s profit and the price guard build on it, so it sits below history.' },
  { name: 'history', may: domainMay('history'), why: 'the trade history is recorded into by the trade watcher above it.' },
  { name: 'apply', may: domainMay('apply'), why: 'an apply sends a draft through the scheduler and records what it did.' },
  { name: 'trades', may: domainMay('trades'), why: 'the trade watcher records into the history and settles what an apply sold.' },
  { name: 'inventory', may: domainMay('inventory'), why: 'the inventory drafts listings of the trader\'s items into the drafts.' },
  { name: 'pricing', may: domainMay('pricing'), why: 'repricing reads the price sources, the costs and the ledger, drafts its changes and applies them on a schedule: it builds on every domain below and none builds on it.' },
  { name: 'alerts', may: domainMay('alerts'), why: 'the alerts are raised by what the domains do (trades needing action, the heartbeat\'s mark, an apply\'s end) and sent to the trader\'s webhooks; nothing below raises them.' },
  { name: 'desk', may: [...BELOW_DOMAINS, ...DOMAINS], why: 'the desk composes the domains: it hands each service what it needs, and nothing below imports it.' },
  { name: 'data', may: [...BELOW_DOMAINS, ...DOMAINS, 'desk', 'shell'], why: 'the data boundary\'s protocol and method maps carry the desk\'s and the shell\'s views between the threads.' },
  { name: 'shell', may: [...BELOW_DOMAINS, ...DOMAINS, 'desk'], why: 'the shell\'s support (its log, its tray and notification views) reads the desk from above.' },
];

/** Each folder inside core/ as a layer: its files, what it may import and why. @type {(Layer & { core: string })[]} */
const CORE_LAYERS = CORE_FOLDERS.map(({ name, files, may, why }) => ({
  folder: name === 'base' ? 'src-main/core/*.ts (the base)' : `src-main/core/${name}/`,
  files: files ?? [`src-main/core/${name}/**`],
  may: ['src-shared', 'core/*.ts', ...may.map((m) => `core/${m}`)],
  why,
  core: name,
}));

/** The specifiers a layer may not import, each with the folder it names. @param {Layer & { core?: string }} layer */
function forbiddenFor(layer) {
  if (layer.core !== undefined) {
    // What core/ may not import, and the folders inside core/ this one may not.
    const core = /** @type {Layer} */ (LAYERS.find((l) => l.folder === 'src-main/core/'));
    const own = layer.core;
    const may = new Set(layer.may);
    return [...forbiddenFor(core), ...CORE_FOLDERS.filter((f) => f.name !== 'base' && f.name !== own && !may.has(`core/${f.name}`))
      .map((f) => ({ target: `src-main/core/${f.name}/`, regex: entering(f.name) }))];
  }
  const may = new Set(layer.may.map((m) => m.split(' ')[0]));
  const own = layer.folder.split('/')[1];
  /** @type {{ target: string, regex: string, dynamicAllowed?: boolean, allowTypeImports?: boolean }[]} */
  const out = [];
  if (layer.folder.startsWith('src-main/')) {
    for (const f of SRC_MAIN_FOLDERS) {
      if (f === own) continue;
      if (f === 'sandbox' && own === 'worker') out.push({ target: 'src-main/sandbox/', regex: entering(f), dynamicAllowed: true, allowTypeImports: true });
      else if (!may.has(f)) out.push({ target: `src-main/${f}/`, regex: entering(f) });
    }
    for (const f of TOP_FOLDERS) if (f !== 'src-shared' && f !== 'src-main') out.push({ target: `${f}/`, regex: entering(f) });
    return [...out, ...(layer.refuse ?? [])];
  }
  for (const f of TOP_FOLDERS) {
    if (`${f}/` === layer.folder || may.has(f)) continue;
    const files = [...may].filter((m) => m.startsWith(`${f}/`)).map((m) => m.slice(f.length + 1));
    if (files.length > 0) out.push({ target: `${f} (but ${files.join(', ')})`, regex: `${entering(f)}(?!(${files.map((n) => n.replaceAll('.', '\\.')).join('|')})$)` });
    else out.push({ target: `${f}/`, regex: entering(f) });
  }
  out.push({ target: 'Node built-ins', regex: '^node:' });
  return out;
}

const mayList = (/** @type {Layer} */ layer) => (layer.may.length ? layer.may.join(', ') : 'nothing but itself');
const messageFor = (/** @type {Layer} */ layer, /** @type {string} */ target) => `${layer.folder} may import only ${mayList(layer)}; not ${target}: ${layer.why}`;

/** @param {Layer & { core?: string }} layer @param {boolean} electron @returns {import('eslint').Linter.RulesRecord} */
function layerRules(layer, electron) {
  const forbidden = forbiddenFor(layer);
  return {
    'no-restricted-imports': ['error', {
      paths: electron ? [] : [noElectron],
      patterns: forbidden.map((f) => ({
        regex: f.regex,
        ...(f.allowTypeImports ? { allowTypeImports: true } : {}),
        message: f.dynamicAllowed
          ? 'The data worker loads the simulator only when sandbox mode starts: `await import()` it there (a type import is fine).'
          : messageFor(layer, f.target),
      })),
    }],
    'no-restricted-syntax': ['error', ...forbidden.filter((f) => !f.dynamicAllowed).map((f) => ({
      // esquery's regex literal cannot hold a `/`: \x2F is one.
      selector: `ImportExpression[source.value=/${f.regex.replaceAll('/', '\\x2F')}/]`,
      message: messageFor(layer, f.target),
    }))],
  };
}

/**
 * The renderer's screens (components, views, composables) talk to the Pinia
 * stores, and only the stores talk to the bridge (src-renderer/src/bridge/api.ts).
 */
const RENDERER_SCREENS = ['src-renderer/src/components/**', 'src-renderer/src/views/**', 'src-renderer/src/composables/**'];
const bridgeRefused = {
  regex: '(^|/)api(\\.ts)?$',
  message: 'Components, views and composables reach main through the Pinia store of the area, never api.ts: the store is the one place '
    + 'that knows the area\'s channels and keeps main\'s answers, so every screen shows the same state. Add the call to that store (src-renderer/src/stores/).',
};

/** The renderer layer's rules, the bridge refused besides (a later block replaces a rule whole). @returns {import('eslint').Linter.RulesRecord} */
function rendererScreenRules() {
  const rules = layerRules(/** @type {Layer} */ (LAYERS.find((l) => l.folder === 'src-renderer/')), false);
  const [severity, options] = /** @type {['error', { paths: object[], patterns: object[] }]} */ (rules['no-restricted-imports']);
  const syntax = /** @type {['error', ...object[]]} */ (rules['no-restricted-syntax']);
  return {
    'no-restricted-imports': [severity, { ...options, patterns: [...options.patterns, bridgeRefused] }],
    'no-restricted-syntax': [...syntax, { selector: `ImportExpression[source.value=/${bridgeRefused.regex.replaceAll('/', '\\x2F')}/]`, message: bridgeRefused.message }],
  };
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  {
    // CommonJS files (the bench's worker entry loads the built worker as the app's Worker does): require is how they import.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The pages: the renderer, and the socket client that gives the server's page its bridge.
    files: ['src-renderer/**', 'src-preload/socket.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Tests, benchmarks, build scripts and configs: no electron outside the desktop layer's tests.
  {
    ignores: electronAllowed,
    rules: { 'no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
  // The layers. A later no-restricted-imports replaces an earlier one for the same
  // file, so each block states the whole rule, `electron` included.
  ...LAYERS.map((layer) => ({ files: layer.files, rules: layerRules(layer, layer.files.every((f) => electronAllowed.includes(f))) })),
  // The layers inside core/: each block states core/'s rule and the folder's own.
  ...CORE_LAYERS.map((layer) => ({ files: layer.files, rules: layerRules(layer, false) })),
  // The preload proper; its folder's socket client runs in a browser, without Electron.
  {
    files: ELECTRON.preload,
    rules: layerRules(/** @type {Layer} */ (LAYERS.find((l) => l.folder === 'src-preload/')), true),
  },
  { files: RENDERER_SCREENS, rules: rendererScreenRules() },
);
