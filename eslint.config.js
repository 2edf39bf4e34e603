import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * The import rules of DESIGN.md ("Layout and the direction of imports"), checked on every lint.
 * Each entry bans module specifiers (globs) in a set of files, with the reason shown on violation.
 */
const NODE = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'worker_threads'];

const ban = (group, message) => ({ group, message });
const MAIN_ONLY = ban(
  ['electron', 'better-sqlite3', 'node-llama-cpp', 'ws', ...NODE],
  'Node, Electron and native modules live in src-main.',
);

/** Which src-main folder alone may import each native dependency. */
const OWNED = {
  'better-sqlite3': ['store'],
  'node-llama-cpp': ['llm'],
  electron: ['app', 'ipc', 'preload'],
  ws: ['server'],
  // Only the sandbox starts processes (tools/sandbox); tests, and the test helpers in testing/, may start the CLI.
  'node:child_process': ['tools', 'testing'],
  child_process: ['tools', 'testing'],
};

/** Folders of src-main below which a folder must not reach back up: lower layers never import higher ones. */
const HIGHER = {
  llm: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'store'],
  store: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'llm'],
  agent: ['host', 'server', 'cli', 'ipc', 'app', 'preload'],
  host: ['server', 'cli', 'ipc', 'app', 'preload'],
  history: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'llm', 'tools'],
  util: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'llm', 'store'],
  permissions: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'llm', 'store', 'tools'],
  tools: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'llm', 'store', 'permissions'],
  // Evaluation drives a model and the tools on fixtures; runs are kept by the Host, so it never reaches the store.
  eval: ['host', 'agent', 'server', 'cli', 'ipc', 'app', 'preload', 'store'],
  // The egress guard is the lowest layer: everything that connects out goes through it.
  privacy: [
    'host',
    'agent',
    'server',
    'cli',
    'ipc',
    'app',
    'preload',
    'llm',
    'store',
    'permissions',
    'tools',
    'history',
    'util',
  ],
};

const MAIN_FOLDERS = [
  'agent',
  'app',
  'bench',
  'cli',
  'eval',
  'history',
  'host',
  'ipc',
  'llm',
  'permissions',
  'preload',
  'privacy',
  'server',
  'store',
  'testing',
  'tools',
  'util',
];
const TEST_FILES = ['**/*.test.ts'];

/** The rules for one folder of src-main; its tests may also start processes (the CLI under test). */
function mainFolderRules(folder, { tests }) {
  const patterns = [ban(['**/src-renderer/**'], 'src-main never imports the renderer.')];
  for (const [module, owners] of Object.entries(OWNED)) {
    if (tests && module.endsWith('child_process')) continue;
    if (!owners.includes(folder)) patterns.push(ban([module], `Only src-main/${owners.join(', ')} import ${module}.`));
  }
  const higher = HIGHER[folder];
  if (higher)
    patterns.push(
      ban(
        higher.map((f) => `../${f}/*`),
        `src-main/${folder} is below ${higher.join(', ')}.`,
      ),
    );
  return {
    files: tests ? TEST_FILES.map((t) => `src-main/${folder}/${t}`) : [`src-main/${folder}/**`],
    ...(tests ? {} : { ignores: TEST_FILES }),
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
    },
  },
  { files: ['src-renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ban(['**/src-main/**', '**/src-renderer/**'], 'src-shared imports nothing from the other roots.'),
            ban(['react', 'react-dom', 'zustand'], 'src-shared holds no UI code.'),
            MAIN_ONLY,
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ban(['**/src-main/**'], 'The renderer talks to the Host only through src-shared/contract.'),
            MAIN_ONLY,
          ],
        },
      ],
    },
  },
  ...MAIN_FOLDERS.map((folder) => mainFolderRules(folder, { tests: false })),
  ...MAIN_FOLDERS.map((folder) => mainFolderRules(folder, { tests: true })),
);
