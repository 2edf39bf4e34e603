import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * The package bans of DESIGN.md ("Layout and the direction of imports"), checked on every lint: which folders may
 * import Node, Electron and the native modules. Each entry bans module specifiers (globs) in a set of files, with the
 * reason shown on violation. The directions between folders (layers, testing/, cycles) are checked on resolved paths
 * by dependency-cruiser (.dependency-cruiser.js, `npm run lint:deps`).
 */
const NODE = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'worker_threads'];

const ban = (group, message) => ({ group, message });
const MAIN_ONLY = ban(
  ['electron', 'better-sqlite3', 'node-llama-cpp', 'ws', ...NODE],
  'Node, Electron and native modules live in src-main.',
);

/** Which src-main folder alone may import each native dependency. */
const OWNED = {
  // testing/databaseSnapshot.ts reads a database behind the store's back, to prove a batch of calls wrote nothing.
  'better-sqlite3': ['store', 'testing'],
  'node-llama-cpp': ['llm'],
  electron: ['app', 'ipc', 'preload'],
  ws: ['server'],
  // Only the sandbox starts processes (tools/sandbox); tests, and the test helpers in testing/, may start the CLI; the
  // benchmark (a command of its own, never part of the app) starts the app for a real restart, and llama-server.
  'node:child_process': ['tools', 'testing', 'bench'],
  child_process: ['tools', 'testing', 'bench'],
};

/**
 * Which folders may open sockets (DESIGN.md: every connection the app opens is asked of the egress guard first):
 * privacy/ (the guard and the watcher that records any other), llm/ (model downloads, and remote/ for trusted
 * nodes), server/ (loopback only), tools/ (the worker's web and mail tools), and the test helpers and benchmark.
 * `isIP` and types from node:net are as welcome anywhere, but a new folder that needs them asks here first.
 */
const SOCKETS = [
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'node:tls',
  'node:dgram',
  'http',
  'https',
  'net',
  'tls',
];
const SOCKET_OWNERS = ['privacy', 'llm', 'server', 'tools', 'testing', 'bench'];

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
  'services',
  'store',
  'testing',
  'tools',
  'util',
];
const TEST_FILES = ['**/*.test.ts'];

/** The rules for one folder of src-main; its tests may also start processes (the CLI under test). */
function mainFolderRules(folder, { tests }) {
  const patterns = [];
  for (const [module, owners] of Object.entries(OWNED)) {
    if (tests && module.endsWith('child_process')) continue;
    if (!owners.includes(folder)) patterns.push(ban([module], `Only src-main/${owners.join(', ')} import ${module}.`));
  }
  // Tests may start servers of their own (a fake node, an SMTP server) wherever they are.
  if (!tests && !SOCKET_OWNERS.includes(folder)) {
    patterns.push(
      ban(
        SOCKETS,
        `Only src-main/${SOCKET_OWNERS.join(', ')} open network connections, each asked of the egress guard.`,
      ),
    );
  }
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
          patterns: [ban(['react', 'react-dom', 'zustand'], 'src-shared holds no UI code.'), MAIN_ONLY],
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
          patterns: [MAIN_ONLY],
        },
      ],
    },
  },
  {
    // The Host only wires (DESIGN.md): each area's work lives in its service, and this file stays short enough to read.
    files: ['src-main/host/createHost.ts'],
    rules: { 'max-lines': ['error', { max: 99, skipBlankLines: false, skipComments: false }] },
  },
  ...MAIN_FOLDERS.map((folder) => mainFolderRules(folder, { tests: false })),
  ...MAIN_FOLDERS.map((folder) => mainFolderRules(folder, { tests: true })),
);
