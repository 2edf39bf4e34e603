import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Restricted imports for one layer of DESIGN.md: `patterns` are globs of module specifiers. */
const layer = (files, patterns, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
  },
});

const NODE_BUILTINS = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto'];

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

  // src-shared: the contract and domain types; no process, no DOM, no other root.
  layer(
    ['src-shared/**'],
    ['**/src-main/**', '**/src-renderer/**', 'electron', 'better-sqlite3', 'node-llama-cpp', 'react', ...NODE_BUILTINS],
    'src-shared imports nothing from the other roots, Node, Electron or the DOM (DESIGN.md, Layout).',
  ),
  // src-renderer: talks to the Host only through bridge/ and the contract.
  layer(
    ['src-renderer/**'],
    ['**/src-main/**', 'electron', 'better-sqlite3', 'node-llama-cpp', ...NODE_BUILTINS],
    'The renderer never imports src-main, electron or Node (DESIGN.md, Layout).',
  ),
  // Inside main, each native dependency belongs to exactly one folder.
  layer(['src-main/**'], ['**/src-renderer/**'], 'src-main never imports the renderer.'),
  {
    files: ['src-main/**'],
    ignores: ['src-main/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src-renderer/**'], message: 'src-main never imports the renderer.' },
            { group: ['better-sqlite3'], message: 'Only src-main/store imports better-sqlite3.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**'],
    ignores: ['src-main/store/**', 'src-main/llm/**', 'src-main/app/**', 'src-main/ipc/**', 'src-main/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/src-renderer/**'], message: 'src-main never imports the renderer.' },
            { group: ['better-sqlite3'], message: 'Only src-main/store imports better-sqlite3.' },
            { group: ['node-llama-cpp'], message: 'Only src-main/llm imports node-llama-cpp.' },
            { group: ['electron'], message: 'Only src-main/app, ipc and preload import electron.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/llm/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['better-sqlite3'], message: 'Only src-main/store imports better-sqlite3.' },
            { group: ['electron'], message: 'Only src-main/app, ipc and preload import electron.' },
            {
              group: ['**/host/**', '**/server/**', '**/cli/**', '**/ipc/**', '**/app/**'],
              message: 'llm is below host.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/store/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node-llama-cpp'], message: 'Only src-main/llm imports node-llama-cpp.' },
            { group: ['electron'], message: 'Only src-main/app, ipc and preload import electron.' },
            {
              group: ['**/host/**', '**/server/**', '**/cli/**', '**/ipc/**', '**/app/**', '**/llm/**'],
              message: 'store is below host.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/app/**', 'src-main/ipc/**', 'src-main/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['better-sqlite3'], message: 'Only src-main/store imports better-sqlite3.' },
            { group: ['node-llama-cpp'], message: 'Only src-main/llm imports node-llama-cpp.' },
          ],
        },
      ],
    },
  },
);
