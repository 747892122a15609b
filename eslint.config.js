// @ts-check
import tseslint from 'typescript-eslint';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';

/** Only the desktop layer, the composition root and the preload may touch Electron. */
const electronAllowed = ['src-main/main-thread/desktop/**', 'src-main/main-thread/index.ts', 'src-main/main-thread/main-process.ts', 'src-preload/**', 'test/desktop/**'];
const noElectron = { name: 'electron', message: 'Only src-main/main-thread/desktop/, its index.ts and main-process.ts, and src-preload/ may import electron.' };

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
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    ignores: electronAllowed,
    rules: {
      'no-restricted-imports': ['error', { paths: [noElectron] }],
    },
  },
  // The layers, enforced: each block restates `electron` because a later
  // no-restricted-imports replaces an earlier one for the same files.
  {
    files: ['src-main/core/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron],
        patterns: [{ group: ['**/sandbox/*', '**/sandbox'], message: 'core/ never imports the simulator: the composition root injects it.' }],
      }],
    },
  },
  {
    files: ['src-main/worker/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron],
        patterns: [{ group: ['**/sandbox/*', '**/sandbox'], allowTypeImports: true, message: 'The data worker loads the simulator only when sandbox mode starts: import() it there.' }],
      }],
    },
  },
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron],
        patterns: [{ group: ['**/src-main/**'], allowTypeImports: true, message: 'The renderer runs nothing from src-main: shared code lives in src-shared/.' }],
      }],
    },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [noElectron],
        patterns: [
          { group: ['**/src-main/**', '**/src-renderer/**', '**/src-preload/**'], message: 'src-shared/ imports nothing process-specific.' },
          { group: ['node:*'], message: 'src-shared/ runs in the renderer too: no Node built-ins.' },
        ],
      }],
    },
  },
  {
    files: ['src-preload/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/src-shared/*', '!**/src-shared/channels.ts', '**/src-main/**'], message: 'The preload imports only the names list (src-shared/channels.ts): it must stay a few kilobytes.' }],
      }],
    },
  },
);
