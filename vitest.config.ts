import { defineConfig } from 'vitest/config';

/**
 * Two projects, both run by `npm test`:
 * - unit: no model, no process, no server; threads, the bulk of the tests (`npm run test:unit`).
 * - integration: `*.int.test.ts`, real inference on generated models, real processes, servers on loopback
 *   (`npm run test:integration`). node-llama-cpp and better-sqlite3 are native addons, and several files start
 *   processes: each file runs in its own process.
 */
const INTEGRATION = ['src-main/**/*.int.test.ts', 'src-renderer/**/*.int.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src-shared/**/*.test.ts', 'src-main/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}'],
          exclude: INTEGRATION,
          pool: 'threads',
          // A unit test that needs more than this is doing integration work.
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: INTEGRATION,
          // After the unit tests when both run in one command (the two pools cannot share a group).
          sequence: { groupOrder: 1 },
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One llama.cpp thread per engine (children inherit it): two files at once on two cores with two threads
          // each wait on each other at every token, tens of times slower. Tests of the thread setting clear it.
          env: { HOMEBODY_THREADS: '1' },
          globalSetup: ['./src-main/testing/globalSetup.ts'],
        },
      },
    ],
  },
});
